/**
 * Response schemas, one per body shape of api-spec.md "Resources", lenient at the boundary (./lenient.ts). Everywhere: ids are
 * text, durations seconds, percentages numbers (63.4 = 63.4 %), images absolute URLs, a hero id of 0 null.
 */
import * as z from 'zod';
import type { ImageResolver } from './images.js';
import {
  bool,
  count,
  flag,
  id,
  isRecord,
  list,
  maybeRecord,
  measure,
  num,
  optionalId,
  record,
  requiredText,
  seconds,
  text,
  textList,
  textRecord,
  toNumber,
  toResult,
  toText,
  type MatchResult,
} from './lenient.js';

// zod's JIT is off: these schemas parse a request at a time behind the rate limiter, and compiling each schema on first use
// dominated the first /player answer after a cold start, while later parses are no slower without it.
z.config({ jitless: true });

/** Canonical spellings for `additional_fields` keys that drift (`CoolDown` and `Cooldown`). */
const ABILITY_FIELD_NAMES: Record<string, string> = {
  key: 'Key',
  cooldown: 'Cooldown',
  casting: 'Casting',
  energycost: 'Energy Cost',
  specialeffect: 'Special Effect',
  damage: 'Damage',
  duration: 'Duration',
  range: 'Range',
};

function canonicalAbilityFields(fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) {
    const canonical = ABILITY_FIELD_NAMES[key.toLowerCase().replace(/[\s_-]/g, '')] ?? key;
    out[canonical] ??= value;
  }
  return out;
}

/** Percent from wins and matches, so every list agrees with its own counts; the API's rounded `win_rate` only with no counts. Null with no matches. */
function winRate(given: unknown, wins: number, matches: number): number | null {
  if (matches > 0) return (wins / matches) * 100;
  return toNumber(given);
}

/** `winner_side` as 0 (team A) or 1 (team B): v1 documents "A"/"B", real data has 0/1. */
function side(value: unknown): number | null {
  const t = toText(value)?.trim().toUpperCase();
  if (t === 'A') return 0;
  if (t === 'B') return 1;
  return toNumber(value);
}

/** `score_info` `{"0": 3, "1": 2}` as `[3, 2]`; null for Quick Play (null) and other shapes. */
function score(value: unknown): [number, number] | null {
  if (!isRecord(value)) return null;
  const a = toNumber(value['0']);
  const b = toNumber(value['1']);
  return a === null || b === null ? null : [a, b];
}

/**
 * A history row's result for its player (docs/data.md "A draw is is_win.score 2"): what `is_win` says (its `score` 2 is a draw), and where
 * it gives no score but a loss, a draw when the row's rounds are level or its `winner_side` names neither team (the real
 * draw has rounds 3–3 and `winner_side` 12; no other real row has either).
 */
function rowResult(isWin: unknown, rounds: [number, number] | null, winnerSide: number | null): MatchResult | null {
  const given = toResult(isWin);
  const scored = isRecord(isWin) && toNumber(isWin.score) !== null;
  const neither = winnerSide !== null && winnerSide !== 0 && winnerSide !== 1;
  return given === 'loss' && !scored && ((rounds !== null && rounds[0] === rounds[1]) || neither) ? 'draw' : given;
}

/** Post dates arrive as YYYY/MM/DD (documented YYYY-MM-DD): both become ISO YYYY-MM-DD; other text is kept. */
function isoDate(value: unknown): string | null {
  const t = toText(value)?.trim();
  if (!t) return null;
  const m = t.match(/^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})/);
  return m ? `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}` : t;
}

/** Every response schema, image paths resolved by `img` (api-spec.md "Resources and their fields"; drift from api-samples/README.md). */
export function createSchemas(img: ImageResolver) {
  const image = () => z.unknown().optional().transform(img);
  const images = () =>
    z
      .unknown()
      .optional()
      .transform((v) => (Array.isArray(v) ? v.map(img).filter((s): s is string => s !== null) : []));

  const transformation = z.object({
    id: id(),
    name: text(),
    icon: image(),
    /** Health points, from text such as "200". */
    health: measure(),
    /** Metres per second, from text such as "6m/s". */
    movement_speed: measure(),
  });

  const heroCostume = record({
    id: id(),
    name: text(),
    icon: z.unknown().optional(),
    imageUrl: z.unknown().optional(),
    quality: z.unknown().optional(),
    description: text(),
    appearance: text(),
  }).transform((c) => ({
    id: c.id,
    name: c.name,
    icon: img(c.icon) ?? img(c.imageUrl),
    /** Quality name: the spec's text (NO_QUALITY) or the real data's `{name, color, value, icon}`. */
    quality: isRecord(c.quality) ? toText(c.quality.name) : toText(c.quality),
    quality_color: isRecord(c.quality) ? toText(c.quality.color) : null,
    description: c.description,
    appearance: c.appearance,
  }));

  const ability = z
    .object({
      id: id(),
      icon: image(),
      name: text(),
      type: text(),
      isCollab: flag(),
      description: text(),
      transformation_id: id(),
      additional_fields: textRecord(),
    })
    .transform((a) => ({
      id: a.id,
      icon: a.icon,
      name: a.name,
      type: a.type,
      is_collab: a.isCollab,
      description: a.description,
      transformation_id: a.transformation_id,
      /** Free key/value metadata with drifting key spellings made canonical (Key, Cooldown, Energy Cost...). */
      fields: canonicalAbilityFields(a.additional_fields),
    }));

  const hero = z
    .object({
      id: id(),
      name: requiredText('hero name'),
      real_name: text(),
      imageUrl: image(),
      role: text(),
      attack_type: text(),
      team: textList(),
      difficulty: num(),
      bio: text(),
      lore: text(),
      transformations: list(transformation),
      costumes: list(heroCostume),
      abilities: list(ability),
    })
    .transform(({ imageUrl, id: heroId, ...h }) => ({ ...h, id: heroId ?? h.name, image: imageUrl }));

  const costume = z.object({ id: id(), name: text(), icon: image(), rarity: text(), description: text(), appearance: text() });

  const heroStats = z.object({
    hero_id: id(),
    hero_name: text(),
    hero_icon: image(),
    matches: count(),
    wins: count(),
    /** Average kills, deaths and assists per match. */
    k: num(),
    d: num(),
    a: num(),
    play_time: seconds(),
    total_hero_damage: num(),
    total_hero_heal: num(),
    total_damage_taken: num(),
    session_hit_rate: num(),
    solo_kill: num(),
  });

  const rankSeason = z.object({
    rank_game_id: num(),
    level: num(),
    rank_score: num(),
    max_level: num(),
    max_rank_score: num(),
    update_time: num(),
    win_count: num(),
    protect_score: num(),
    diff_score: num(),
  });

  const leaderboardEntry = z
    .object({
      info: record({ name: text(), cur_head_icon_id: id(), rank_season: maybeRecord(rankSeason.shape), login_os: text() }),
      player_uid: requiredText('player_uid'),
      matches: count(),
      wins: count(),
      kills: count(),
      deaths: count(),
      assists: count(),
      /** Minutes as decimal text in the spec; converted to seconds below. */
      play_time: num(),
      total_hero_damage: num(),
      total_damage_taken: num(),
      total_hero_heal: num(),
      mvps: count(),
      svps: count(),
    })
    .transform(({ info, play_time, ...e }) => ({
      ...e,
      name: info.name,
      icon_id: info.cur_head_icon_id,
      rank: info.rank_season,
      login_os: info.login_os,
      play_time: play_time === null ? null : play_time * 60,
      win_rate: winRate(undefined, e.wins, e.matches),
    }));

  const leaderboard = z.object({ players: list(leaderboardEntry) });

  const item = z.object({
    id: requiredText('item id'),
    name: text(),
    quality: text(),
    type: text(),
    icon: image(),
    slug: text(),
    description: text(),
    associated_hero: text(),
  });

  const achievementSummary = z.object({ id: requiredText('achievement id'), name: text(), category: text(), points: num(), icon: image() });
  const achievement = z.object({
    id: id(),
    name: requiredText('achievement name'),
    mission: text(),
    points: num(),
    category: text(),
    icon: image(),
    rarity: text(),
  });

  const gameMap = z
    .object({
      id: requiredText('map id'),
      name: text(),
      full_name: text(),
      location: text(),
      description: text(),
      game_mode: text(),
      is_competitve: flag(),
      sub_map: maybeRecord({ id: id(), name: text(), thumbnail: image() }),
      video: text(),
      images: images(),
    })
    .transform(({ is_competitve, ...m }) => ({ ...m, is_competitive: is_competitve }));

  const battlePass = z.object({
    season: num(),
    season_name: text(),
    items: list(z.object({ name: text(), image: image(), cost: text(), isLuxury: flag() }).transform(({ isLuxury, ...i }) => ({ ...i, is_luxury: isLuxury }))),
  });

  const post = z
    .object({ id: requiredText('post id'), title: text(), date: text(), overview: text(), fullContent: text(), imagePath: image() })
    .transform(({ fullContent, imagePath, date, ...p }) => ({ ...p, date: isoDate(date), full_content: fullContent, image: imagePath }));

  const gameVersion = z
    .object({ version: requiredText('version'), release: text(), patchNotesUrl: text() })
    .transform(({ patchNotesUrl, ...v }) => ({ ...v, patch_notes_url: patchNotesUrl }));

  /** Per-mode totals of a profile (`overall_stats.ranked` / `.unranked`). */
  const modeStats = record({
    total_matches: count(),
    total_wins: count(),
    total_kills: count(),
    total_deaths: count(),
    total_assists: count(),
    total_time_played: z.unknown().optional(),
    total_time_played_raw: z.unknown().optional(),
    total_mvp: count(),
    total_svp: count(),
  }).transform((s) => ({
    matches: s.total_matches,
    wins: s.total_wins,
    kills: s.total_kills,
    deaths: s.total_deaths,
    assists: s.total_assists,
    /** From the raw number or the "5h 10m 11s" text. */
    play_time: seconds().parse(s.total_time_played_raw) ?? seconds().parse(s.total_time_played) ?? 0,
    mvp: s.total_mvp,
    svp: s.total_svp,
    win_rate: winRate(undefined, s.total_wins, s.total_matches),
  }));

  const heroUsage = z
    .object({
      hero_id: optionalId(),
      hero_name: text(),
      hero_thumbnail: image(),
      level: num(),
      matches: count(),
      wins: count(),
      mvp: count(),
      svp: count(),
      kills: count(),
      deaths: count(),
      assists: count(),
      play_time: seconds(),
      damage: num(),
      heal: num(),
      damage_taken: num(),
      main_attack: maybeRecord({ total: num(), hits: num() }),
    })
    .transform(({ main_attack, ...h }) => ({
      ...h,
      win_rate: winRate(undefined, h.wins, h.matches),
      /** Main-attack hit rate between 0 and 1, when the profile has it. */
      hit_rate: main_attack && main_attack.total && main_attack.hits !== null ? main_attack.hits / main_attack.total : null,
      /** Main-attack hits and shots, when the profile gives both: rows add up by shots, not by their rates. */
      shots: main_attack && main_attack.total && main_attack.hits !== null ? { hits: main_attack.hits, total: main_attack.total } : null,
    }));

  /** One recent match from any history shape: v1, v2 (with `pagination`), or the profile's embedded `match_history` (`player_performance`). */
  const matchSummary = z
    .object({
      match_uid: requiredText('match_uid'),
      match_map_id: id(),
      map_id: id(),
      map_thumbnail: image(),
      match_play_duration: seconds(),
      duration: seconds(),
      match_season: num(),
      season: num(),
      match_winner_side: z.unknown().optional(),
      winner_side: z.unknown().optional(),
      mvp_uid: id(),
      svp_uid: id(),
      score_info: z.unknown().optional(),
      match_time_stamp: num(),
      play_mode_id: num(),
      game_mode_id: num(),
      match_player: z.unknown().optional(),
      player_performance: z.unknown().optional(),
    })
    .transform((m) => {
      const p = isRecord(m.match_player) ? m.match_player : isRecord(m.player_performance) ? m.player_performance : {};
      const hero = isRecord(p.player_hero) ? p.player_hero : {};
      const scoreInfo = isRecord(p.score_info) ? p.score_info : {};
      const rounds = score(m.score_info);
      const winnerSide = side(m.match_winner_side ?? m.winner_side);
      const result = rowResult(p.is_win, rounds, winnerSide);
      return {
        match_uid: m.match_uid,
        map_id: m.match_map_id ?? m.map_id,
        map_thumbnail: m.map_thumbnail,
        duration: m.match_play_duration ?? m.duration,
        season: m.match_season ?? m.season,
        /** 0 = team A, 1 = team B; another number for a draw (12 in the real one). */
        winner_side: winnerSide,
        mvp_uid: m.mvp_uid,
        svp_uid: m.svp_uid,
        /** Rounds won by team A and team B, null for modes without rounds (Quick Play). */
        score: rounds,
        /** Unix seconds: when the match ended (docs/data.md: its start is in its uid, src/game/match-uid.ts). */
        time: m.match_time_stamp,
        play_mode_id: m.play_mode_id,
        game_mode_id: m.game_mode_id,
        player: {
          uid: toText(p.player_uid),
          hero_id: optionalId().parse(hero.hero_id ?? p.hero_id),
          hero_name: toText(hero.hero_name ?? p.hero_name),
          hero_icon: img(hero.hero_thumbnail ?? hero.hero_type ?? p.hero_type),
          kills: toNumber(p.kills) ?? 0,
          deaths: toNumber(p.deaths) ?? 0,
          assists: toNumber(p.assists) ?? 0,
          /** The player's result; null when the row does not say. */
          result,
          /** True a win, false a loss; null for a draw or no result (use `result` to tell them apart). */
          is_win: result === 'win' ? true : result === 'loss' ? false : null,
          disconnected: toBooleanOr(p.disconnected, false),
          camp: toNumber(p.camp),
          score_change: toNumber(scoreInfo.add_score ?? p.score_change),
          level: toNumber(scoreInfo.level ?? p.level),
          new_level: toNumber(scoreInfo.new_level ?? p.new_level),
          new_score: toNumber(scoreInfo.new_score ?? p.new_score),
          play_time: seconds().parse(hero.play_time),
          damage: toNumber(hero.total_hero_damage),
          damage_taken: toNumber(hero.total_damage_taken),
          heal: toNumber(hero.total_hero_heal),
        },
      };
    });

  const pagination = maybeRecord({ page: num(), limit: num(), total_matches: num(), total_pages: num(), has_more: bool() });

  const matchHistory = z
    .object({ match_history: z.array(z.unknown()), pagination })
    .transform((h) => ({ matches: list(matchSummary).parse(h.match_history), pagination: h.pagination }));

  /** A `peak_rank` block (August 2025 shape), in `player.rank` or beside it. */
  const peakRank = maybeRecord({ rank: text(), score: num(), image: image(), icon: image(), color: text() });

  const playerProfile = z
    .object({
      uid: id(),
      name: text(),
      isPrivate: bool(),
      is_private: bool(),
      updates: record({ info_update_time: text(), last_history_update: text(), last_inserted_match: text(), last_update_request: text() }),
      player: record({
        uid: id(),
        level: num(),
        name: text(),
        icon: record({ player_icon_id: id(), player_icon: image(), banner: image() }),
        /** Older shape `{rank, image, color}`; the August 2025 shape `{rank, score: "3,752", unit, icon, color, peak_rank}`. */
        rank: record({ rank: text(), image: image(), icon: image(), color: text(), score: num(), peak_rank: peakRank }),
        peak_rank: peakRank,
        team: record({ club_team_id: id(), club_team_mini_name: text(), club_team_type: text() }),
        info: record({ completed_achievements: num(), login_os: text(), rank_game_season: z.unknown().optional() }),
      }),
      overall_stats: record({
        total_matches: count(),
        /** A number in the older shape, `{wins, percentile…}` in the August 2025 shape. */
        total_wins: z.unknown().optional(),
        ranked: modeStats,
        unranked: modeStats,
        /** August 2025 shape: per-minute totals over every match of the season. */
        per_minute: maybeRecord({ total_damage_per_minute: num(), total_healing_per_minute: num(), total_damage_taken_per_minute: num() }),
        /** August 2025 shape: `{duelist: {total_time_played: {time_played}, matches_played, matches_won, …}, …}`. */
        roles_played: z.unknown().optional(),
        /** August 2025 shape: percentile blocks, read by {@link percentilesOf}. */
        overall_kda: z.unknown().optional(),
        total_mvps: z.unknown().optional(),
        total_svps: z.unknown().optional(),
        total_kills: z.unknown().optional(),
        max_kill_streak: z.unknown().optional(),
      }),
      match_history: list(matchSummary),
      rank_history: list(
        z
          .object({
            match_time_stamp: num(),
            level_progression: record({ from: num(), to: num() }),
            score_progression: record({ add_score: num(), total_score: num() }),
          })
          .transform((r) => ({
            time: r.match_time_stamp,
            level_from: r.level_progression.from,
            level_to: r.level_progression.to,
            add_score: r.score_progression.add_score,
            total_score: r.score_progression.total_score,
          })),
      ),
      hero_matchups: list(
        z
          .object({
            hero_id: optionalId(),
            hero_name: text(),
            hero_class: text(),
            hero_thumbnail: image(),
            matches: count(),
            wins: count(),
            win_rate: z.unknown().optional(),
          })
          .transform((m) => ({ ...m, win_rate: winRate(m.win_rate, m.wins, m.matches) })),
      ),
      team_mates: list(
        z
          .object({
            player_info: record({ nick_name: text(), player_icon: image(), player_uid: id() }),
            matches: count(),
            wins: count(),
            win_rate: z.unknown().optional(),
          })
          .transform((t) => ({
            uid: t.player_info.player_uid,
            name: t.player_info.nick_name,
            icon: t.player_info.player_icon,
            matches: t.matches,
            wins: t.wins,
            win_rate: winRate(t.win_rate, t.wins, t.matches),
          })),
      ),
      heroes_ranked: list(heroUsage),
      heroes_unranked: list(heroUsage),
      maps: list(
        z
          .object({
            map_id: id(),
            map_name: text(),
            map_thumbnail: image(),
            matches: count(),
            wins: count(),
            win_rate: z.unknown().optional(),
            kills: count(),
            deaths: count(),
            assists: count(),
            play_time: seconds(),
          })
          .transform((m) => ({ ...m, win_rate: winRate(m.win_rate, m.wins, m.matches) })),
      ),
    })
    .superRefine((p, ctx) => {
      if (p.uid === null && p.player.uid === null && p.name === null && p.player.name === null) {
        ctx.addIssue({ code: 'custom', message: 'profile has neither uid nor name' });
      }
    })
    .transform((p) => {
      const info = p.player.info;
      const seasons = isRecord(info.rank_game_season) ? info.rank_game_season : {};
      return {
        uid: (p.uid ?? p.player.uid)!,
        name: p.name ?? p.player.name ?? String(p.uid ?? p.player.uid),
        is_private: p.isPrivate ?? p.is_private ?? false,
        /** Locale date-time texts without a time zone, as the API sends them ("3/5/2025, 9:23:44 PM"). */
        updates: p.updates,
        level: p.player.level,
        icon: p.player.icon.player_icon,
        icon_id: p.player.icon.player_icon_id,
        banner: p.player.icon.banner,
        /** As stated: `name` can be "Invalid level" (derive the tier from `rank_seasons`); `score` and `peak` only in the August 2025 shape. */
        rank: {
          name: p.player.rank.rank,
          image: p.player.rank.image ?? p.player.rank.icon,
          color: p.player.rank.color,
          score: p.player.rank.score,
          peak: peakOf(p.player.rank.peak_rank ?? p.player.peak_rank),
        },
        team: p.player.team.club_team_mini_name
          ? { id: p.player.team.club_team_id, name: p.player.team.club_team_mini_name, type: p.player.team.club_team_type }
          : null,
        completed_achievements: info.completed_achievements,
        login_os: info.login_os,
        /** One entry per ranked season the profile lists, keyed in the API by a game id such as "1001003". */
        rank_seasons: Object.entries(seasons).flatMap(([gameId, value]) => {
          const r = rankSeason.safeParse(isRecord(value) ? value : {});
          return r.success ? [{ game_id: gameId, ...r.data }] : [];
        }),
        overall: {
          total_matches: p.overall_stats.total_matches,
          total_wins: toNumber(isRecord(p.overall_stats.total_wins) ? p.overall_stats.total_wins.wins : p.overall_stats.total_wins) ?? 0,
          ranked: p.overall_stats.ranked,
          unranked: p.overall_stats.unranked,
          per_minute: p.overall_stats.per_minute
            ? {
                damage: p.overall_stats.per_minute.total_damage_per_minute,
                heal: p.overall_stats.per_minute.total_healing_per_minute,
                damage_taken: p.overall_stats.per_minute.total_damage_taken_per_minute,
              }
            : null,
          /** Play by role when the profile states it (August 2025 shape): role name as given ("duelist"), seconds, matches, wins. */
          roles: rolesOf(p.overall_stats.roles_played),
          /** Where the player stands among all players (August 2025 shape); every entry null in the older shape. */
          percentiles: percentilesOf(p.overall_stats),
          /** Most kills in a row (August 2025 shape); null when not given. */
          max_kill_streak: firstNumber(p.overall_stats.max_kill_streak),
        },
        recent_matches: p.match_history,
        rank_history: p.rank_history,
        hero_matchups: p.hero_matchups,
        team_mates: p.team_mates,
        heroes_ranked: p.heroes_ranked,
        heroes_unranked: p.heroes_unranked,
        maps: p.maps,
      };
    });

  const matchPlayerHero = z.object({
    hero_id: optionalId(),
    /** Seconds. */
    play_time: seconds(),
    kills: count(),
    deaths: count(),
    assists: count(),
    /** Between 0 and 1. */
    session_hit_rate: num(),
    hero_icon: image(),
  });

  const matchPlayer = z
    .object({
      player_uid: requiredText('player_uid'),
      nick_name: text(),
      /** A path in the spec, an icon id (number) in real data. */
      player_icon: z.unknown().optional(),
      camp: num(),
      cur_hero_id: optionalId(),
      cur_hero_icon: image(),
      /** 0 or 1 in real details (a Boolean in the spec); read as a row's `is_win`, 2 a draw. */
      is_win: z.unknown().optional().transform(toResult),
      kills: count(),
      deaths: count(),
      assists: count(),
      total_hero_damage: count(),
      total_hero_heal: count(),
      total_damage_taken: count(),
      player_heroes: list(matchPlayerHero),
      /** Real data (not in the spec): `[{name: "Triple!", id: 6, count: 1}]` or null. */
      badges: list(z.object({ name: requiredText('badge name'), count: num() })),
    })
    .transform(({ player_icon, player_heroes, is_win: result, ...p }) => ({
      ...p,
      result,
      /** True a win, false a loss; null for a draw or no result. */
      is_win: result === 'win' ? true : result === 'loss' ? false : null,
      player_icon: typeof player_icon === 'string' && /[/.]/.test(player_icon) ? img(player_icon) : null,
      player_icon_id: typeof player_icon === 'number' || (typeof player_icon === 'string' && /^\d+$/.test(player_icon)) ? String(player_icon) : null,
      heroes: player_heroes,
    }));

  const matchDetail = z
    .object({
      match_details: z.object({
        match_uid: requiredText('match_uid'),
        game_mode: record({ game_mode_id: num(), game_mode_name: text() }),
        replay_id: id(),
        mvp_uid: id(),
        svp_uid: id(),
        mvp_hero_id: optionalId(),
        svp_hero_id: optionalId(),
        /** In no capture nor the spec, but named as the history rows name it, in case the API adds it. */
        match_map_id: id(),
        map_id: id(),
        map_name: text(),
        match_players: list(matchPlayer),
      }),
    })
    .transform(({ match_details: m }) => ({
      match_uid: m.match_uid,
      /** The map when the detail names it; real details do not, but newer match uids embed it (src/game/match-uid.ts). */
      map_id: m.match_map_id ?? m.map_id,
      map_name: m.map_name,
      game_mode_id: m.game_mode.game_mode_id,
      game_mode_name: m.game_mode.game_mode_name,
      replay_id: m.replay_id,
      mvp_uid: m.mvp_uid,
      svp_uid: m.svp_uid,
      mvp_hero_id: m.mvp_hero_id,
      svp_hero_id: m.svp_hero_id,
      players: m.match_players,
    }));

  /** A paged list body `{<count field>: n, <array field>: [...]}` (the names differ per resource). */
  const paged = <T extends z.ZodType>(countField: string, arrayField: string, element: T) =>
    z.object({ [countField]: num(), [arrayField]: z.array(z.unknown()) }).transform((body) => {
      const entries = list(element).parse(body[arrayField]);
      return { total: (body[countField] as number | null) ?? entries.length, entries };
    });

  /** Never described nor captured: any object is accepted and only a text `message` kept. */
  const playerUpdate = z.object({ message: z.unknown().optional() }).transform((b) => ({ message: typeof b.message === 'string' ? b.message : null }));

  /**
   * A season ladder entry (`/api/v2/players/leaderboard`, docs/data.md "The API's other reads"): `rank.rank` is an object
   * `{rank, image, color}` there (text in a profile); wins and matches are `win_count` and `battle_count`.
   */
  const topPlayer = z
    .preprocess(
      (v) => (isRecord(v) ? { ...v, uid: v.uid ?? v.player_uid ?? v.id } : {}),
      z.object({
        // Kept without one: dropping an entry would move every place after it.
        uid: text(),
        name: text(),
        icon: record({ player_icon_id: id(), player_icon: image() }),
        rank: record({
          rank: z.unknown().optional(),
          rank_score: num(),
          max_rank_score: num(),
          level: num(),
          max_level: num(),
          win_rate: num(),
          win_count: num(),
          battle_count: num(),
          season_number: num(),
        }),
      }),
    )
    .transform(({ uid, name, icon, rank }) => {
      const tier = isRecord(rank.rank) ? rank.rank : { rank: rank.rank };
      const wins = rank.win_count;
      const matches = rank.battle_count;
      return {
        uid,
        name,
        icon: icon.player_icon,
        /** The tier's own label ("Celestial 1"), its badge and colour as the API gives them. */
        tier: toText(tier.rank),
        tier_image: img(tier.image),
        tier_colour: toText(tier.color),
        /** Division 1 (Bronze III) … 23 (One Above All) when the API's `level` is one; see docs/data.md. */
        level: rank.level,
        rank_score: rank.rank_score,
        peak_score: rank.max_rank_score,
        wins,
        matches,
        // From the counts when both are given, so the line agrees with its own record; else the API's own rate.
        win_rate: wins !== null && matches !== null ? winRate(rank.win_rate, wins, matches) : rank.win_rate,
        season: rank.season_number,
      };
    });

  /** The season ladder's list: under `players`, else `data`, `leaderboard` or bare; no list at all is a shape the bot does not know. */
  const topPlayers = z.unknown().transform((body, ctx) => {
    const b = isRecord(body) ? body : {};
    const inner = isRecord(b.data) ? b.data : {};
    const rows = [body, b.players, b.data, b.leaderboard, inner.players].find(Array.isArray);
    if (!rows) {
      ctx.addIssue({ code: 'custom', message: 'no list of players' });
      return z.NEVER;
    }
    const players = list(topPlayer).parse(rows);
    const meta = isRecord(b.pagination) ? { ...b, ...b.pagination } : b;
    return {
      players,
      page: toNumber(meta.page),
      limit: toNumber(meta.limit),
      total_players: toNumber(meta.total_players ?? meta.total),
      total_pages: toNumber(meta.total_pages),
    };
  });

  /**
   * The season listing (`/api/v1/seasons`): numbers as clients read it (`{seasons: [0, 1, 1.5]}`), or objects with a
   * `season` (or `number`), `name` and start and end dates; bare or under `seasons`/`data`. Dates become epoch ms.
   */
  const seasons = z.unknown().transform((body, ctx) => {
    const b = isRecord(body) ? body : {};
    const rows = [body, b.seasons, b.data, b.season].find(Array.isArray);
    if (!rows) {
      ctx.addIssue({ code: 'custom', message: 'no list of seasons' });
      return z.NEVER;
    }
    const out: { number: number; name: string | null; starts_at: number | null; ends_at: number | null }[] = [];
    for (const row of rows) {
      const r: Record<string, unknown> = isRecord(row) ? row : { season: row };
      const n = toNumber(r.season ?? r.number ?? r.season_number ?? r.id);
      if (n === null || n < 0 || Math.round(n * 10) !== n * 10) continue;
      out.push({
        number: n,
        name: toText(r.name ?? r.title),
        starts_at: epochMs(r.starts_at ?? r.start ?? r.start_date),
        ends_at: epochMs(r.ends_at ?? r.end ?? r.end_date),
      });
    }
    return { seasons: out, current: toNumber(b.current ?? b.current_season) };
  });

  /** Player search (`/api/v1/find-player/{name}`): `{name, uid}` bare, under `player` or `data`, or first in a list; no uid is no player. */
  const foundPlayer = z.unknown().transform((body) => {
    const first: unknown = Array.isArray(body) ? (body as unknown[])[0] : body;
    const b = isRecord(first) ? first : {};
    const inner = [b.player, b.data].find(isRecord) ?? b;
    const uid = toText(inner.uid ?? inner.player_uid);
    return { uid: uid?.trim() || null, name: toText(inner.name ?? inner.nick_name) };
  });

  return {
    heroes: z.array(z.unknown()).transform((v) => list(hero).parse(v)),
    hero,
    heroStats,
    costumes: z.array(z.unknown()).transform((v) => list(costume).parse(v)),
    leaderboard,
    achievements: paged('total_achievements', 'achievements', achievementSummary),
    achievement,
    battlePass,
    items: paged('total_items', 'items', item),
    item,
    maps: paged('total_maps', 'maps', gameMap),
    balances: paged('total_balances', 'balances', post),
    patchNotes: paged('total_patches', 'formatted_patches', post),
    devDiaries: paged('total_entries', 'dev_diaries', post),
    post,
    gameVersions: paged('total_versions', 'versions', gameVersion),
    player: playerProfile,
    matchHistory,
    match: matchDetail,
    playerUpdate,
    topPlayers,
    seasons,
    foundPlayer,
  };
}

/** Epoch ms from epoch seconds or ms, or a date text; null for anything else. */
function epochMs(value: unknown): number | null {
  const n = toNumber(value);
  if (n !== null) return n > 1e12 ? n : n > 1e8 ? n * 1000 : null;
  const t = toText(value);
  const parsed = t === null ? Number.NaN : Date.parse(t);
  return Number.isFinite(parsed) ? parsed : null;
}

/** A `peak_rank` block as `{name, score, image}`; null when it says nothing. */
function peakOf(peak: { rank: string | null; score: number | null; image: string | null; icon: string | null } | null) {
  if (!peak || (peak.rank === null && peak.score === null)) return null;
  return { name: peak.rank, score: peak.score, image: peak.image ?? peak.icon };
}

/** `roles_played` `{duelist: {total_time_played: {time_played}, matches_played, matches_won}}` as a list; [] for other shapes. */
function rolesOf(value: unknown): { role: string; play_time: number | null; matches: number | null; wins: number | null }[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([role, r]) => {
    if (!isRecord(r) || role.trim() === '') return [];
    const time = isRecord(r.total_time_played) ? (r.total_time_played.time_played ?? r.total_time_played.playtime) : r.total_time_played;
    return [{ role, play_time: seconds().parse(time), matches: toNumber(r.matches_played), wins: toNumber(r.matches_won) }];
  });
}

/**
 * A placement among all players: `side` "top" or "bottom", `percent` 0–100 as the API states it ("Bottom 31.0%").
 * Read from the placement text, the one field whose meaning is explicit: beside it, `percentile_raw` is the percentile in
 * some blocks (`overall_kda`: 31 and "Bottom 31.0%") and the player's own rate in others (`svp_percentage`: 7.69 = 2 SVPs
 * in 26 ranked matches, percentile 11).
 */
export interface Placement {
  side: 'top' | 'bottom';
  percent: number;
}

function placementOf(block: unknown): Placement | null {
  if (!isRecord(block)) return null;
  for (const value of [block.placement, block.percentile]) {
    const m = typeof value === 'string' ? /^\s*(top|bottom)\s+([\d.]+)\s*%\s*$/i.exec(value) : null;
    if (!m) continue;
    const percent = Number(m[2]);
    if (Number.isFinite(percent) && percent >= 0 && percent <= 100) return { side: m[1]!.toLowerCase() as Placement['side'], percent };
  }
  return null;
}

/** `overall_stats` percentile blocks: win rate (`total_wins.win_percentage`), KDA, MVP and SVP rates, kills. */
function percentilesOf(stats: Record<string, unknown>): {
  win_rate: Placement | null;
  kda: Placement | null;
  mvp: Placement | null;
  svp: Placement | null;
  kills: Placement | null;
} {
  const inner = (key: string, sub: string) => (isRecord(stats[key]) ? stats[key][sub] : undefined);
  return {
    win_rate: placementOf(inner('total_wins', 'win_percentage')),
    kda: placementOf(stats.overall_kda),
    mvp: placementOf(inner('total_mvps', 'mvp_percentage')),
    svp: placementOf(inner('total_svps', 'svp_percentage')),
    kills: placementOf(stats.total_kills),
  };
}

/**
 * The one number of a block such as `max_kill_streak`, whose key is misnamed in real data (`{"damage_taken": 18}` on a
 * profile with 640 kills, 33 in its best recent match): a bare number, or a block's only numeric value; null otherwise.
 */
function firstNumber(value: unknown): number | null {
  if (!isRecord(value)) return toNumber(value);
  const numbers = Object.values(value)
    .map(toNumber)
    .filter((n): n is number => n !== null);
  return numbers.length === 1 && numbers[0]! >= 0 ? numbers[0]! : null;
}

function toBooleanOr(value: unknown, fallback: boolean): boolean {
  return bool().parse(value) ?? fallback;
}

export type Schemas = ReturnType<typeof createSchemas>;
type Out<K extends keyof Schemas> = z.output<Schemas[K]>;

/** A hero with its transformations, costumes and abilities (spec: Hero). `image` is an absolute URL. */
export type Hero = Out<'hero'>;
/** An ability; `fields` holds `additional_fields` with canonical keys (Key, Cooldown, Energy Cost...). */
export type Ability = Hero['abilities'][number];
/** A form the hero can take; `health` in points, `movement_speed` in m/s. */
export type Transformation = Hero['transformations'][number];
/** Spec: HeroCostume. */
export type HeroCostume = Hero['costumes'][number];
/** Spec: Costume. */
export type Costume = Out<'costumes'>[number];
/** A hero's statistics (spec: Hero statistics); `play_time` in seconds. */
export type HeroStats = Out<'heroStats'>;
/** A hero leaderboard; each entry's `play_time` is in seconds and `win_rate` a percentage. */
export type Leaderboard = Out<'leaderboard'>;
export type LeaderboardEntry = Leaderboard['players'][number];
/** The API's total-count field as `total`, its array as `entries`. */
export interface Page<T> {
  total: number;
  entries: T[];
}
export type AchievementSummary = Out<'achievements'>['entries'][number];
export type Achievement = Out<'achievement'>;
export type BattlePass = Out<'battlePass'>;
export type Item = Out<'item'>;
export type GameMap = Out<'maps'>['entries'][number];
/** A balance post, patch note or dev diary (spec: Post); `date` is ISO YYYY-MM-DD when parseable. */
export type Post = Out<'post'>;
/** A game version; `version` is the eight-digit date-based id as text. */
export type GameVersion = Out<'gameVersions'>['entries'][number];
/** A player profile (spec: Player profile), normalised; durations in seconds, win rates in percent. */
export type PlayerProfile = Out<'player'>;
export type { MatchResult };
export type MatchSummary = Out<'matchHistory'>['matches'][number];
/** A match history page; `pagination` is present for version 2 only. */
export type MatchHistory = Out<'matchHistory'>;
/** A match detail (spec: Match detail); a located match never changes. */
export type MatchDetail = Out<'match'>;
export type MatchPlayer = MatchDetail['players'][number];

/** The API's message, if any. */
export type PlayerUpdate = Out<'playerUpdate'>;
/** A page of the season's ranked ladder; `win_rate` a percentage, `level` the division when it is one (docs/data.md). */
export type TopPlayers = Out<'topPlayers'>;
export type TopPlayer = TopPlayers['players'][number];
/** The season listing; dates epoch ms; `number` the in-game number (1.5). */
export type SeasonListing = Out<'seasons'>;
/** A player search's answer; `uid` null when it names nobody. */
export type FoundPlayer = Out<'foundPlayer'>;

/**
 * `/player`'s other sections: heroes by mode, recent matches with their picker, matchups, maps, teammates and the rank
 * history, each a page of a list or a chart.
 */
import { ComponentType, type APIActionRowComponent, type APIComponentInMessageActionRow, type APIEmbed, type APIEmbedField } from 'discord-api-types/v10';
import type { PlayerProfile } from '../../api/schemas.js';
import type { HistoryPage, HistoryRow } from '../../game/match-history.js';
import { matchupExtremes, MATCHUP_MIN_MATCHES, type Matchup } from '../../game/matchups.js';
import { matchMode, modesByMap, type MapModeRow } from '../../game/modes.js';
import { rowStart } from '../../game/match-uid.js';
import { currentSeason, hasPlay, levelName, rankedSeasons, rankSummary, type SeasonRank } from '../../game/profile.js';
import { rankTimeline, type RankTimelinePoint } from '../../game/rank-timeline.js';
import { rankScore, rankScoreChange, shownLevel } from '../../game/ranks.js';
import { type Season } from '../../game/seasons.js';
import { playedMapLabels } from '../map-names.js';
import { seasonLabel } from '../common.js';
import { aside, discordTime, duration, integer, kda, percent, ratioPercent, shortDate, winLoss } from '../../i18n/format.js';
import { escapeText, LIMITS, truncate } from '../limits.js';
import { componentEmoji, emojiBefore } from '../emojis.js';
import { roleName, tierName } from '../../i18n/names.js';
import { clampPage, pageCount } from '../paginate.js';
import { chartOf, heroPerformanceSpec, rankHistorySpec } from '../view-charts.js';
import { t } from '../strings.js';
import { tr } from '../../i18n/index.js';
import { encodeMatchOrigin } from '../match-origin.js';
import {
  base,
  type PlayerSection,
  counted,
  PER_PAGE,
  type Lookups,
  seasonArg,
  keyedId,
  updateRow,
  coverage,
  heroLabel,
  heroMark,
  mapText,
  modeText,
  listPage,
  type Section,
  withChart,
  type Tracked,
} from './common.js';
import { profileEmbed, statsEmbed, profileCardSpec } from './profile.js';

export function heroesSection(p: PlayerProfile, which: 'ranked' | 'unranked', page: number, look: Lookups): Section {
  // Heroes with play time but no completed match stay, marked so: they hold real play time.
  const heroes = (which === 'ranked' ? p.heroes_ranked : p.heroes_unranked).filter(hasPlay).sort((a, b) => (b.play_time ?? 0) - (a.play_time ?? 0));
  const totals = which === 'ranked' ? p.overall.ranked : p.overall.unranked;
  // Matches in the totals but no hero list (seen in real data): say so, never "no matches".
  const empty =
    totals.matches > 0
      ? tr(`player:heroes.noList.${which}`, { count: totals.matches, n: integer(totals.matches), season: coverage(p, look) })
      : tr(`player:heroes.empty.${which}`, { season: coverage(p, look) });
  const list = listPage(
    heroes,
    page,
    (h, i) =>
      `**${i + 1}. ${heroMark(look, h.hero_id, h.hero_name)}${escapeText(heroLabel(look, h.hero_id, h.hero_name), 60)}** · ${duration(h.play_time)} · ${h.matches > 0 ? `${counted('matches', h.matches)} · ${percent(h.win_rate)}` : tr('player:heroes.noCompleted')} · ${kda(h.kills, h.deaths, h.assists)}${h.hit_rate === null ? '' : ` · ${tr('player:heroes.hitRate', { value: ratioPercent(h.hit_rate) })}`}`,
    empty,
  );
  const section: Section = { embed: { ...base(p, which, look), description: list.description }, pages: list.pages, page: list.page };
  const title = tr(`charts:titles.heroes.${which}`, { name: p.name, season: coverage(p, look) });
  const spec = heroPerformanceSpec(
    title,
    heroes.map((h) => ({ ...h, play_time: h.play_time ?? 0 })),
    (h) => ({
      name: heroLabel(look, h.hero_id, h.hero_name),
      role: look.hero(h.hero_id)?.role ?? null,
    }),
  );
  return withChart(section, chartOf(spec, `${which}-heroes.png`, tr(`charts:alt.heroes.${which}`, { name: p.name })));
}

export const RESULT_WORD = { win: 'player:matches.win', loss: 'player:matches.loss', draw: 'player:matches.draw' } as const;

/** Recent match rows: a practice or bot result in italics, so it never reads as a real win; a season other than `current` named. */
export function matchLines(rows: HistoryRow[], look: Lookups, current: Season | null): string[] {
  return rows.map((m) => {
    const mode = matchMode(m.game_mode_id, m.play_mode_id);
    const word = m.player.result ? tr(RESULT_WORD[m.player.result]) : '—';
    const result = mode.counts ? `**${word}**` : `*${word}*`;
    const modeLabel = modeText(look, m);
    const change = mode.ranked && m.player.score_change !== null ? ` · ${rankScoreChange(m.player.score_change)}` : '';
    const season = m.seasonInfo && current && m.seasonInfo.index !== current.index ? seasonLabel(m.seasonInfo) : null;
    const parts = [
      result,
      heroMark(look, m.player.hero_id, m.player.hero_name) + escapeText(heroLabel(look, m.player.hero_id, m.player.hero_name), 40),
      `${m.player.kills}/${m.player.deaths}/${m.player.assists}`,
      escapeText(mapText(look, m.map_id), 60),
      modeLabel === null ? null : `${modeLabel}${change}`,
      m.duration === null ? null : duration(m.duration),
      m.player.disconnected ? `*${tr('player:matches.disconnected')}*` : null,
      season,
      discordTime(rowStart(m)),
    ];
    return parts.filter((x) => x !== null).join(' · ');
  });
}

/** The recent matches' picker (handled by /match): `mt.l:<uid>:<season>:<page>:<filter>[:<back key>]`, so the match it opens can return to this page as it was. */
export function matchSelect(uid: string, rows: HistoryRow[], page: number, look: Lookups): APIActionRowComponent<APIComponentInMessageActionRow> {
  const offset = (page - 1) * PER_PAGE;
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.StringSelect,
        custom_id: keyedId('mt.l', [uid, seasonArg(look.season), page, look.hidePractice ? 'r' : ''], look.backKey),
        placeholder: tr('player:menu.openMatch'),
        options: rows.slice(0, LIMITS.selectOptions).map((m, i) => {
          const result = tr(m.player.result ? RESULT_WORD[m.player.result] : 'player:matches.match');
          const start = rowStart(m);
          const when = start === null ? null : shortDate(start);
          return {
            label: truncate(
              `${offset + i + 1}. ${result} · ${heroLabel(look, m.player.hero_id, m.player.hero_name)} · ${m.player.kills}/${m.player.deaths}/${m.player.assists}`,
              LIMITS.optionLabel,
            ),
            emoji: componentEmoji('hero', m.player.hero_name),
            value: encodeMatchOrigin({ matchUid: m.match_uid, mapId: m.map_id, modeId: m.game_mode_id, duration: m.duration, time: m.time, score: m.score }),
            description: truncate([mapText(look, m.map_id), modeText(look, m), when].filter(Boolean).join(' · '), LIMITS.optionDescription),
          };
        }),
      },
    ],
  };
}

export function matchesSection(p: PlayerProfile, history: HistoryPage, look: Lookups): Section {
  const notes: string[] = [];
  if (history.source === 'profile' && history.rows.length > 0) notes.push(t.historyFromProfile(history.total, history.noStoredHistory));
  if (history.newerFromProfile > 0 && history.page === 1) notes.push(t.newerFromProfile(history.newerFromProfile));
  if (look.hidePractice) notes.push(tr('player:matches.practiceHidden'));
  const lines = matchLines(history.rows, look, look.season ?? currentSeason(p));
  const empty = look.season ? t.noMatchesInSeason(seasonLabel(look.season)) : t.noRecentMatches();
  const description = truncate([...notes, ...(notes.length ? [''] : []), ...lines].join('\n') || empty, LIMITS.description);
  return {
    embed: { ...base(p, 'matches', look), description },
    pages: history.pages,
    page: history.page,
    extra: history.rows.length === 0 ? [] : [matchSelect(p.uid, history.rows, history.page, look)],
    fetched: history.fetched,
  };
}

/** Best and worst competitive matchups by the player's own win rate (the API's counts are the opposing hero's: src/game/matchups.ts). */
export function matchupsEmbed(p: PlayerProfile, look: Lookups): APIEmbed {
  const { best, worst, tooFew, total } = matchupExtremes(p);
  const line = (m: Matchup) =>
    `**${escapeText(heroLabel(look, m.hero_id, m.hero_name), 60)}**${aside(escapeText(roleName(look.hero(m.hero_id)?.role ?? m.hero_class) ?? '', 20))} · ${tr('player:matchups.record', { count: m.matches, n: integer(m.matches), winRate: percent(m.winRate) })}`;
  const fields: APIEmbedField[] = [];
  if (best.length > 0) fields.push({ name: tr('player:matchups.best'), value: truncate(best.map(line).join('\n'), LIMITS.fieldValue), inline: false });
  if (worst.length > 0) fields.push({ name: tr('player:matchups.worst'), value: truncate(worst.map(line).join('\n'), LIMITS.fieldValue), inline: false });
  const notes = [
    total.matches === 0 ? tr('player:matchups.empty') : tr('player:matchups.intro', { min: MATCHUP_MIN_MATCHES }),
    total.matches > 0 && best.length === 0 ? tr('player:matchups.tooFewAll', { min: MATCHUP_MIN_MATCHES }) : null,
    tooFew > 0 && best.length > 0 ? tr('player:matchups.tooFew', { count: tooFew, n: integer(tooFew), min: MATCHUP_MIN_MATCHES }) : null,
  ].filter(Boolean);
  return { ...base(p, 'matchups', look), title: tr('player:matchups.title'), description: notes.join('\n'), fields };
}

/**
 * Why a season's ranked wins pass the profile's ranked totals: the season's are the game's count over the whole season,
 * the totals only the matches the API recorded (docs/data.md, `win_count`).
 */
export function seasonWinsNote(season: Season, wins: number, totals: PlayerProfile['overall']['ranked']): string {
  return tr('player:rankHistory.winsNote', {
    season: seasonLabel(season),
    wins: tr('player:rankHistory.wins', { count: wins, n: integer(wins) }),
    matches: counted('matches', totals.matches),
    recorded: counted('wins', totals.wins),
  });
}

export function rankHistorySection(p: PlayerProfile, page: number, look: Lookups, tracked: Tracked | undefined): Section {
  // The latest season at the header's rank (src/game/profile.ts): its line and the timeline's newest point agree.
  const seasons = rankedSeasons(p).reverse();
  const totals = p.overall.ranked;
  const totalsSeason = look.season && look.seasonTotals ? look.season : currentSeason(p);
  // The ranked totals are matches the API recorded in their season: that season's count below them was read before they were.
  const shownWins = (s: SeasonRank) => (s.wins !== null && s.season.index === totalsSeason?.index ? Math.max(s.wins, totals.wins) : s.wins);
  const ofTotals = seasons.find((s) => s.season.index === totalsSeason?.index);
  const totalsWins = ofTotals ? shownWins(ofTotals) : null;
  const winsNote = ofTotals && totalsWins !== null && totalsWins > totals.wins ? seasonWinsNote(ofTotals.season, totalsWins, totals) : null;
  const table = seasons.map((s) => {
    const peak =
      s.peakScore === null ? '' : ` · ${tr('player:rankHistory.peak', { rank: `${s.peakTier ? `${tierName(s.peakTier)} ` : ''}${rankScore(s.peakScore)}` })}`;
    const wins = shownWins(s);
    const winsText = wins === null ? '' : ` · ${tr('player:rankHistory.wins', { count: wins, n: integer(wins) })}`;
    const mark = look.season && s.season.index === look.season.index ? '▸ ' : '';
    return `${mark}**${seasonLabel(s.season)}** · ${emojiBefore('tier', s.tier)}${tierName(s.tier) ?? tr('player:unranked')} · ${rankScore(s.score)}${peak}${winsText}`;
  });
  // One timeline (src/game/rank-timeline.ts), newest first: its first line is the header's rank, dated when it was reached.
  const timeline = rankTimeline(p, tracked?.points ?? []);
  const now = rankSummary(p, null);
  const changes = [...timeline].reverse();
  const list = listPage(
    changes,
    page,
    (r: RankTimelinePoint) => {
      // The tier by the header's rule, the level read with its score (src/game/ranks.ts): the newest line names the header's tier.
      const level = shownLevel(r.level, r.score);
      const from = r.levelFrom === null ? null : shownLevel(r.levelFrom, r.change === null ? null : r.score - r.change);
      const tiers = level === null ? null : from === null || from === level ? levelName(level) : `${levelName(from)} → ${levelName(level)}`;
      // Every point names its season, the current one included: the list reads on its own, beside the chart or without it.
      const season = r.season ? seasonLabel(r.season) : tr('player:rankHistory.unknownSeason');
      return [discordTime(r.time), `${r.change === null ? '' : `${rankScoreChange(r.change)} → `}${rankScore(r.score)}`, tiers, season]
        .filter(Boolean)
        .join(' · ');
    },
    tr(table.length > 0 ? 'player:rankHistory.noChanges' : 'player:rankHistory.nothing'),
  );
  // The note stays whole under the seasons: the oldest seasons give way first.
  const note = winsNote === null ? '' : `\n*${winsNote}*`;
  const fields: APIEmbedField[] =
    table.length > 0
      ? [{ name: tr('player:rankHistory.rankedSeasons'), value: truncate(table.join('\n'), LIMITS.fieldValue - note.length) + note, inline: false }]
      : [];
  // Untracked: the API's few points, and how to get more (tracking off for this bot, or not linked).
  const untracked = tracked && !tracked.tracked ? `\n\n${tr('player:rankHistory.untracked')}` : '';
  const description = `${changes.length > 0 ? `**${tr('player:rankHistory.recentChanges')}**\n${list.description}` : list.description}${untracked}`;
  const section: Section = { embed: { ...base(p, 'rank-history', look), fields, description }, pages: list.pages, page: list.page };
  const spec = rankHistorySpec(
    p.name,
    timeline,
    { tier: now.tier, score: now.score, season: now.season, time: now.reachedAt },
    tr('player:rankHistory.unknownSeason'),
  );
  return withChart(section, chartOf(spec, 'rank-history.png', tr('charts:alt.rankHistory', { name: p.name })));
}

/** A member of the server's ladder the player played with (`together`: one team) or against; the record from the player's side. */
export interface PlayedWith {
  userId: string;
  name: string;
  together: boolean;
  wins: number;
  losses: number;
}

/** Members of each kind shown beside the teammates: the most played. */
const PLAYED_WITH_SHOWN = 5;

/** What a section needs beyond the profile and lists, read before it renders: the recent matches' page, the tracked records. */
export interface SectionData {
  history?: HistoryPage;
  /** The Teammates section's: members of this server's ladder the player played with or against (commands/player.ts). */
  playedWith?: PlayedWith[];
  /** The Maps section's: every match row of the player the bot holds ({@link mapModeRows}). */
  mapRows?: MapModeRow[];
  /** Absent without tracking, or when its records cannot be read now (the section shows what the API gives). */
  tracked?: Tracked & { now: number };
}

/** One section at a page, from what was read: pure (charts are asked for as specs, drawn by the runtime). */
export function section(p: PlayerProfile, which: PlayerSection, page: number, look: Lookups, data: SectionData): Section {
  const simple = <T>(items: T[], line: (item: T, i: number) => string, empty: string, extra: Partial<APIEmbed> = {}): Section => {
    const list = listPage(items, page, line, empty);
    return { embed: { ...base(p, which, look), ...extra, description: list.description }, pages: list.pages, page: list.page };
  };
  switch (which) {
    case 'profile': {
      const { embed, cardText } = profileEmbed(p, look, data.tracked);
      // The embed keeps its rank thumbnail: a member who chose embeds (`/settings display`) gets it without the card.
      const card = chartOf(profileCardSpec(p, look), 'profile.png', tr('player:card.alt', { name: p.name }));
      if (!card) return { embed: { ...embed, fields: [...(embed.fields ?? []), ...cardText] }, pages: 1, page: 1, extra: [updateRow(p.uid)] };
      return withChart({ embed, pages: 1, page: 1, extra: [updateRow(p.uid)] }, { ...card, text: { fields: cardText } });
    }
    case 'stats':
      return { embed: statsEmbed(p, look), pages: 1, page: 1 };
    case 'ranked':
    case 'unranked':
      return heroesSection(p, which, page, look);
    case 'matchups':
      return { embed: matchupsEmbed(p, look), pages: 1, page: 1 };
    case 'maps': {
      const rows = p.maps.filter((m) => m.matches > 0).sort((a, b) => b.matches - a.matches);
      // The picture of the page's own first map that has one: never a map another page lists.
      const shown = clampPage(page, pageCount(rows.length, PER_PAGE));
      const image = rows
        .slice((shown - 1) * PER_PAGE, shown * PER_PAGE)
        .map((m) => look.map(m.map_id)?.image ?? m.map_thumbnail)
        .find(Boolean);
      // A map's mode comes from the player's own match rows on it, never from the map list: every row held, though the
      // counts are the profile's.
      const labels = playedMapLabels(
        rows.map((m) => ({ id: m.map_id, info: look.map(m.map_id), name: m.map_name })),
        modesByMap(data.mapRows ?? p.recent_matches),
      );
      return simple(
        rows,
        (m, i) => `**${escapeText(labels[i]!, 80)}** · ${counted('matches', m.matches)} · ${percent(m.win_rate)} · ${kda(m.kills, m.deaths, m.assists)}`,
        tr('player:maps.empty'),
        image ? { thumbnail: { url: image } } : {},
      );
    }
    case 'teammates': {
      const withMembers = data.playedWith ?? [];
      const line = (x: PlayedWith) => tr('player:teammates.member', { user: `<@${x.userId}>`, name: escapeText(x.name, 40), record: winLoss(x) });
      const fields = [true, false].flatMap((together) => {
        const rows = withMembers.filter((x) => x.together === together).slice(0, PLAYED_WITH_SHOWN);
        return rows.length === 0
          ? []
          : [{ name: tr(together ? 'player:teammates.duos' : 'player:teammates.rivals'), value: rows.map(line).join('\n'), inline: true }];
      });
      return simple(
        p.team_mates.filter((x) => x.matches > 0).sort((a, b) => b.matches - a.matches),
        (x) =>
          `**${escapeText(x.name ?? x.uid ?? tr('player:teammates.player'), 60)}** · ${tr('player:teammates.record', { count: x.matches, n: integer(x.matches), winRate: percent(x.win_rate) })}`,
        tr('player:teammates.empty'),
        fields.length > 0 ? { fields } : {},
      );
    }
    case 'rank-history':
      return rankHistorySection(p, page, look, data.tracked);
    case 'matches': {
      if (!data.history) throw new Error('the recent matches were not read before rendering');
      const s = matchesSection(p, data.history, look);
      const filter = { season: seasonArg(look.season), current: look.hidePractice ? ('r' as const) : ('' as const), backKey: look.backKey };
      return { ...s, extra: [...(s.extra ?? []), updateRow(p.uid, filter)] };
    }
  }
}

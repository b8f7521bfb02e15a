/**
 * `/player`'s profile and Combat stats: the rank and its season, the records of each mode, top heroes, recent form,
 * standing among all players, and the profile card.
 */
import { type APIEmbed, type APIEmbedField } from 'discord-api-types/v10';
import type { MatchResult, PlayerProfile } from '../../api/schemas.js';
import { recentForm } from '../../game/form.js';
import {
  currentSeason,
  heroSummary,
  newestUpdate,
  perTenMinutes,
  playTimeByRole,
  rankSummary,
  topHeroes,
  type RankSummary,
  type RoleShare,
  type TopHeroes,
} from '../../game/profile.js';
import { rankTimeline } from '../../game/rank-timeline.js';
import { weekChange } from '../../game/tracking.js';
import { rankScore, rankScoreChange } from '../../game/ranks.js';
import { rankPace, type RankPace } from '../../game/pace.js';
import { seasonLabel } from '../common.js';
import { aside, decimal, discordTime, duration, integer, kda, ratioPercent, sharePercent, wholePercent, winRate } from '../../i18n/format.js';
import { escapeText, truncate } from '../limits.js';
import { emojiBefore } from '../emojis.js';
import { roleName, tierName } from '../../i18n/names.js';
import { CARD_FORM, CARD_HEROES, SPEC_LIMITS, type ProfileCard } from '../../charts/specs.js';
import { t } from '../strings.js';
import { currentLocale, tr } from '../../i18n/index.js';
import { base, counted, TOP_HEROES, type Lookups, coveredSeason, coverage, heroLabel, heroMark, tierPart, type Tracked } from './common.js';

/** "Since last week" of a tracked player (src/game/tracking.ts), or null when there is nothing to compare. */
export function weekField(p: PlayerProfile, look: Lookups, rank: RankSummary, tracked: (Tracked & { now: number }) | undefined): APIEmbedField | null {
  if (!tracked?.tracked || look.season) return null;
  const timeline = rankTimeline(p, tracked.points);
  const week = weekChange(timeline, tracked.matches, { score: rank.score, tier: rank.tier, season: rank.season?.index ?? null }, tracked.now);
  if (!week) return null;
  // A week with no match and no change says nothing the rank fields do not.
  const moved = week.scoreFrom !== null && week.scoreTo !== null && Math.round(week.scoreTo) !== Math.round(week.scoreFrom);
  if (week.matches === 0 && !moved) return null;
  const parts: string[] = [];
  if (week.scoreFrom !== null && week.scoreTo !== null)
    parts.push(`${rankScore(week.scoreFrom)} → ${rankScore(week.scoreTo)} (${rankScoreChange(week.scoreTo - week.scoreFrom)})`);
  if (week.tierFrom && week.tierTo && week.tierFrom !== week.tierTo) parts.push(`${tierName(week.tierFrom)} → ${tierName(week.tierTo)}`);
  parts.push(week.matches > 0 ? `${counted('matches', week.matches)} · ${winRate(week.wins, week.matches)}` : tr('player:week.noMatches'));
  const name = week.fullWeek ? tr('player:week.title') : tr('player:week.since', { when: discordTime(week.since, 'D') });
  return { name, value: parts.join(' · '), inline: false };
}

/**
 * The profile's embed, and the fields its image card stands for (top heroes, recent form): shown after the
 * embed's own fields when the card is not (a member who chose embeds, a card not drawn or not uploaded).
 */
export function profileEmbed(p: PlayerProfile, look: Lookups, tracked?: Tracked & { now: number }): { embed: APIEmbed; cardText: APIEmbedField[] } {
  const rank = rankSummary(p, look.season);
  const r = p.overall.ranked;
  const u = p.overall.unranked;
  const fields: APIEmbedField[] = [];
  const cardText: APIEmbedField[] = [];
  // The rank's season, when it is not the season the member asked for or the current one (an older ranked season).
  const rankSeason = rank.season && rank.season.index !== (look.season ?? currentSeason(p))?.index ? aside(seasonLabel(rank.season)) : '';
  fields.push({
    name: tr('player:profile.rankScore'),
    value: rank.score === null ? '—' : `${emojiBefore('tier', rank.tier)}${rankScore(rank.score)}${rankSeason}`,
    inline: true,
  });
  if (rank.seasonPeak) {
    const name = rankSeason || look.season ? tr('player:profile.peakIn', { season: seasonLabel(rank.season!) }) : tr('player:profile.peakThisSeason');
    fields.push({ name, value: `${tierPart(rank.seasonPeak.tier)}${rankScore(rank.seasonPeak.score)}`, inline: true });
  }
  if (rank.allTimePeak) {
    fields.push({
      name: tr('player:profile.allTimePeak'),
      value: `${tierPart(rank.allTimePeak.tier)}${rankScore(rank.allTimePeak.score)}${aside(seasonLabel(rank.allTimePeak.season))}`,
      inline: true,
    });
  }
  const pace = look.season ? null : rankPace(p, rank);
  if (pace) fields.push({ name: tr('player:pace.title', { tier: tierName(pace.nextTier) }), value: paceLine(pace), inline: false });
  fields.push(
    { name: tr('player:profile.ranked'), value: modeLine(r), inline: false },
    { name: tr('player:profile.unranked'), value: modeLine(u), inline: false },
  );
  const top = topHeroes(p);
  const shown = top.heroes.slice(0, TOP_HEROES);
  if (shown.length > 0) {
    cardText.push({
      name: topHeroesLabel(top),
      value: shown
        .map((h, i) => {
          const hero = look.hero(h.hero_id);
          const record = h.matches > 0 ? `${counted('matches', h.matches)} · ${winRate(h.wins, h.matches)}` : tr('player:heroes.noCompleted');
          return `**${i + 1}. ${heroMark(look, h.hero_id, h.hero_name)}${escapeText(heroLabel(look, h.hero_id, h.hero_name), 60)}**${aside(escapeText(roleName(hero?.role) ?? '', 20))} · ${duration(h.play_time)} · ${record} · ${kda(h.kills, h.deaths, h.assists)}`;
        })
        .join('\n'),
      inline: false,
    });
  }
  // The current season's rank: the week is shown only when no season was asked for.
  const week = weekField(p, look, rank, tracked);
  if (week) fields.push(week);
  const form = recentForm(p.recent_matches);
  if (form)
    cardText.push({ name: tr('player:form.title', { count: form.results.length, n: integer(form.results.length) }), value: formLine(form), inline: false });
  const embed: APIEmbed = {
    ...base(p, 'profile', look),
    // A season asked for that the profile has no ranked record of is said so, not called Unranked;
    // a tier of an older season than the current one says its season.
    title: rank.tier
      ? `${tierName(rank.tier)}${rankSeason}`
      : look.season && rank.score === null
        ? tr('player:profile.noRankedRecord', { season: seasonLabel(look.season) })
        : tr('player:unranked'),
    description: [
      tr('player:profile.coverage', { season: coverage(p, look) }),
      look.season && !look.seasonTotals ? t.seasonTotalsUnavailable(seasonLabel(look.season)) : null,
      identityLine(p),
    ]
      .filter(Boolean)
      .join('\n'),
    thumbnail: rank.image ? { url: rank.image } : undefined,
    fields,
  };
  return { embed, cardText };
}

/**
 * Combat figures and standing, one menu away from the profile so that its first screen fits a phone:
 * play time by role, per 10 minutes, the standing among all players the newer profile shape states, MVP / SVP.
 */

/** "Per 10 minutes · all modes": a figure of ranked and unranked together says so. */
export const allModes = (label: string) => `${label} · ${tr('player:profile.allModes')}`;

/** "Ranked 0 / 1 · Unranked 5 / 8": MVPs and SVPs of each mode, never added up beside figures of one mode. */
export function mvpSvpByMode(ranked: { mvp: number; svp: number } | null, unranked: { mvp: number; svp: number } | null): string {
  const part = (label: string, r: { mvp: number; svp: number } | null) => (r ? `${label} ${integer(r.mvp)} / ${integer(r.svp)}` : null);
  return [part(tr('player:profile.ranked'), ranked), part(tr('player:profile.unranked'), unranked)].filter(Boolean).join(' · ') || '—';
}

export function statsEmbed(p: PlayerProfile, look: Lookups): APIEmbed {
  const r = p.overall.ranked;
  const u = p.overall.unranked;
  const fields: APIEmbedField[] = [];
  const roles = roleSplit(p, look);
  if (roles.parts.length > 0)
    fields.push({
      name:
        roles.recent === null
          ? tr('player:profile.playTimeByRole')
          : tr('player:profile.playTimeByRoleRecent', { count: roles.recent, n: integer(roles.recent) }),
      value: roles.parts.map((x) => `${x.role} ${duration(x.seconds)}${aside(sharePercent(x.share))}`).join(' · '),
      inline: false,
    });
  const per10 = perTenMinutes(p);
  if (per10) {
    const parts = [
      per10.damage === null ? null : tr('player:profile.damage', { value: integer(per10.damage) }),
      per10.heal === null ? null : tr('player:profile.healing', { value: integer(per10.heal) }),
      per10.damage_taken === null ? null : tr('player:profile.damageTaken', { value: integer(per10.damage_taken) }),
    ].filter(Boolean);
    fields.push({ name: allModes(tr('player:profile.perTenMinutes')), value: parts.join(' · '), inline: false });
  }
  const standing = standingLine(p);
  if (standing) fields.push({ name: tr('player:standing.title'), value: standing, inline: false });
  fields.push({ name: tr('player:profile.mvpSvp'), value: mvpSvpByMode(r, u), inline: false });
  return { ...base(p, 'stats', look), fields };
}

/** "Top heroes · Ranked": what the heroes beside the ranked record count (src/game/profile.ts `topHeroes`). */
export function topHeroesLabel(top: TopHeroes): string {
  if (top.source === 'lists') return tr(top.mode === 'ranked' ? 'player:profile.topHeroesRanked' : 'player:profile.topHeroesUnranked');
  const key = top.mode === 'ranked' ? 'player:profile.topHeroesRecentRanked' : 'player:profile.topHeroesRecentUnranked';
  return tr(key, { count: top.matches, n: integer(top.matches) });
}

/**
 * Play time by role as the Statistics embed and the card both show it (src/game/profile.ts `playTimeByRole`): `seconds`
 * the time the shares are of; `recent` the matches it was taken from when the hero lists are empty, else null.
 */
export function roleSplit(p: PlayerProfile, look: Lookups): { parts: RoleShare[]; seconds: number; recent: number | null } {
  const parts = playTimeByRole(p, (id) => look.hero(id)?.role ?? null);
  const summary = heroSummary(p);
  const recent = summary.source === 'recent' && summary.heroes.length > 0 ? summary.heroes.reduce((n, h) => n + h.matches, 0) : null;
  return { parts, seconds: parts.reduce((s, r) => s + r.seconds, 0), recent };
}

/** The profile as an image card (src/charts/cards.ts): the same figures as the embed beside it, which stays the text. */
export function profileCardSpec(p: PlayerProfile, look: Lookups): ProfileCard {
  const rank = rankSummary(p, look.season);
  const r = p.overall.ranked;
  // The rank's season is named when it is not the one the card is headed with (the season its tiles count),
  // as the embed does: an older ranked season, or the one asked for when the API gave the current season's totals.
  const covered = coveredSeason(p, look);
  const rankSeason = rank.season && rank.season.index !== covered?.index ? rank.season : null;
  // A pace counts the rank's season: among the tiles, which count the card's season, only when the two are one.
  const pace = look.season || rankSeason ? null : rankPace(p, rank);
  const tiles = [
    {
      label: tr('player:profile.ranked'),
      // Wins of matches, not W–L: the totals give no count of draws, so matches less wins is not losses.
      value: r.matches > 0 ? tr('player:card.winsOfMatches', { wins: integer(r.wins), matches: integer(r.matches) }) : '—',
    },
    { label: tr('player:card.rankedWinRate'), value: r.matches > 0 ? winRate(r.wins, r.matches) : '—' },
    { label: tr('player:card.rankedKda'), value: r.kills + r.deaths + r.assists > 0 ? decimal((r.kills + r.assists) / Math.max(1, r.deaths)) : '—' },
    pace
      ? { label: tr('player:pace.title', { tier: tierName(pace.nextTier) }), value: tr('player:card.score', { score: integer(Math.ceil(pace.points)) }) }
      : { label: tr('player:profile.mvpSvpRanked'), value: `${integer(r.mvp)} / ${integer(r.svp)}` },
  ];
  const top = topHeroes(p);
  const roles = roleSplit(p, look);
  const form = recentForm(p.recent_matches);
  const shownForm = form ? form.results.slice(0, CARD_FORM) : [];
  const subtitle = [`${tr('player:profile.level')} ${integer(p.level)}`, p.login_os].filter(Boolean).join(' · ');
  return {
    kind: 'profile-card',
    locale: currentLocale(),
    title: truncate(`${p.name}${p.team?.name ? ` [${p.team.name}]` : ''}`, SPEC_LIMITS.titleLength),
    subtitle: truncate(subtitle, SPEC_LIMITS.titleLength),
    season: truncate(coverage(p, look), SPEC_LIMITS.titleLength),
    icon: p.icon,
    rank: {
      tier: rank.tier ?? tr('player:unranked'),
      score: rank.score === null ? '—' : tr('player:card.score', { score: rankScore(rank.score) }),
      peak: rank.seasonPeak?.score != null ? tr('player:card.peak', { score: rankScore(rank.seasonPeak.score) }) : null,
      season: rankSeason ? seasonLabel(rankSeason) : null,
      icon: rank.image,
    },
    tiles,
    heroes: top.heroes.slice(0, CARD_HEROES).map((h) => {
      const hero = look.hero(h.hero_id);
      const ratio = h.kills + h.deaths + h.assists > 0 ? tr('player:card.kdaValue', { value: decimal((h.kills + h.assists) / Math.max(1, h.deaths)) }) : null;
      const heroImage = h.hero_id ? (look.heroImage(h.hero_id) ?? null) : null;
      return {
        name: truncate(heroLabel(look, h.hero_id, h.hero_name), SPEC_LIMITS.nameLength),
        role: hero?.role ?? null,
        lines: [h.matches > 0 ? `${winRate(h.wins, h.matches)} · ${integer(h.matches)}` : duration(h.play_time), ratio].filter((x): x is string => !!x),
        image: heroImage,
      };
    }),
    // The embed's split (Statistics), its shares written the same way.
    roles: roles.parts.map((r) => ({ role: r.key ?? 'Other', label: `${r.role} ${sharePercent(r.share)}`, seconds: r.seconds })),
    form: shownForm,
    labels: {
      heroes: topHeroesLabel(top),
      roles:
        roles.recent === null
          ? tr('player:card.playTime', { time: duration(roles.seconds) })
          : tr('player:card.playTimeRecent', { count: roles.recent, n: integer(roles.recent) }),
      form: form ? tr('player:form.title', { count: form.results.length, n: integer(form.results.length) }) : '',
      record: cardFormRecord(shownForm),
    },
  };
}

/** "Level 153 · UID 1786151874 · PC · 45 achievements · updated 3 days ago": the facts that need no field of their own. */
export function identityLine(p: PlayerProfile): string {
  const updated = newestUpdate(p);
  return [
    `${tr('player:profile.level')} ${integer(p.level)}`,
    `${tr('player:profile.uid')} ${p.uid}`,
    p.login_os ? escapeText(p.login_os, 40) : null,
    p.completed_achievements === null ? null : tr('player:profile.achievementCount', { count: p.completed_achievements, n: integer(p.completed_achievements) }),
    updated === null ? null : tr('player:profile.updatedAt', { when: discordTime(updated) }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * "48 points to go · about 5 matches at 55.0 % wins (+24.3 / −18.0, last 20 ranked) · Chrono Shield: 2"; without a win and a
 * loss to pace it, "about 2 wins at +24.3 a win" (src/game/pace.ts).
 */
export function paceLine(pace: RankPace): string {
  const m = pace.matches;
  const basis = m && { rate: ratioPercent(m.winRate), win: rankScoreChange(m.perWin), loss: rankScoreChange(-m.perLoss), basis: integer(m.basis) };
  return [
    tr('player:pace.points', { count: Math.ceil(pace.points), n: integer(Math.ceil(pace.points)) }),
    // The matches at the recent rate say more than the wins alone: the wins only without them.
    m !== null
      ? m.needed === null
        ? tr('player:pace.flat', basis!)
        : tr('player:pace.matches', { count: m.needed, n: integer(m.needed), ...basis! })
      : pace.winsNeeded === null || pace.perWin === null
        ? tr('player:pace.noWins')
        : tr('player:pace.wins', { count: pace.winsNeeded, n: integer(pace.winsNeeded), perWin: rankScoreChange(pace.perWin) }),
    pace.shield === null ? null : tr('player:pace.shield', { value: integer(pace.shield) }),
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * "Win rate: better than 31 % of players · KDA: top 5 % · … · best kill streak 18", where the profile states them; null
 * otherwise. A placement is the API's percentile (docs/data.md): "Bottom 31.0%" is better than 31 % of players, said with
 * the share it is sure of (rounded down; "Top 4.2%" rounded up, top 5 %). One that comes to nothing (better than 0 %: the
 * API's "Bottom 0.0%" for a player with no MVP at all) is left out.
 */
export function standingLine(p: PlayerProfile): string | null {
  const { percentiles, max_kill_streak: streak } = p.overall;
  const parts = (['win_rate', 'kda', 'mvp', 'svp', 'kills'] as const).flatMap((key) => {
    const placement = percentiles[key];
    if (!placement) return [];
    const what = tr(`player:standing.${key}`);
    if (placement.side === 'top') return [tr('player:standing.top', { what, value: wholePercent(Math.max(1, Math.ceil(placement.percent))) })];
    const better = Math.floor(placement.percent);
    return better < 1 ? [] : [tr('player:standing.better', { what, value: wholePercent(better) })];
  });
  if (streak !== null) parts.push(tr('player:standing.killStreak', { n: integer(streak) }));
  return parts.length === 0 ? null : parts.join(' · ');
}

/** The card's "8 W · 6 L", "8 W · 5 L · 1 D" with a draw among `results`. */
export function cardFormRecord(results: readonly MatchResult[]): string {
  const n = (r: MatchResult) => integer(results.filter((x) => x === r).length);
  return results.includes('draw')
    ? tr('player:card.formRecordWithDraws', { wins: n('win'), losses: n('loss'), draws: n('draw') })
    : tr('player:card.formRecord', { wins: n('win'), losses: n('loss') });
}

export const FORM_MARK = { win: 'player:form.winMark', loss: 'player:form.lossMark', draw: 'player:form.drawMark' } as const;

export const FORM_STREAK = { win: 'player:form.winStreak', loss: 'player:form.lossStreak', draw: 'player:form.drawStreak' } as const;

/** "W W L D W · 7–3–1 · +42.5 rank score · 2 wins in a row · …", newest result first, the draws said only when there are some (src/game/form.ts). */
export function formLine(form: NonNullable<ReturnType<typeof recentForm>>): string {
  const marks = form.results.map((r) => tr(FORM_MARK[r])).join(' ');
  const record = { wins: integer(form.wins), losses: integer(form.losses) };
  const parts = [
    marks,
    form.draws > 0 ? tr('player:form.recordWithDraws', { ...record, draws: integer(form.draws) }) : tr('player:form.record', record),
    form.rankChange === null ? null : tr('player:form.rankChange', { value: rankScoreChange(form.rankChange) }),
    tr(FORM_STREAK[form.streak.result], { count: form.streak.length, n: integer(form.streak.length) }),
    form.leftOut > 0 ? tr('player:form.leftOut', { count: form.leftOut, n: integer(form.leftOut) }) : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

/** "26 matches · 14 wins · 53.8 % · 462 / 194 / 288 (KDA 3.87) · 4h 27m"; an em dash for an empty record. */
export function modeLine(s: PlayerProfile['overall']['ranked']): string {
  if (s.matches === 0) return '—';
  return `${counted('matches', s.matches)} · ${counted('wins', s.wins)} · ${winRate(s.wins, s.matches)} · ${kda(s.kills, s.deaths, s.assists)} · ${duration(s.play_time)}`;
}

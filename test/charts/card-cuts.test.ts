/**
 * No card cuts a figure, a tier or a hero's name, in any language, and no part of a match card runs into another. Every
 * card the bot draws (the profile card, the match card, the ladder card) and the heroes chart are made by the real
 * handlers in each of the six languages from real samples pushed to the longest real values: each language's longest tier
 * name (as the tier and as the pace's target), the largest figures (166,071h 50m of play time, five-digit records and
 * damage), the longest hero names and map name, the most rows a team has. Each is drawn as the worker draws it, and the
 * drawing reports every protected text it had to cut (src/charts/cards.ts `OnCut`), none may be, and where it put each
 * part (`OnBox`), none over another. (`/player hero:` and `/compare` draw no card.) This file registers the Japanese font
 * process-wide: it runs isolated.
 */
import { describe, expect, it } from 'vitest';
import { matchView } from '../../src/catalog/match-answer.js';
import { playerView } from '../../commands/player.js';
import type { CardBox, CardCut } from '../../src/charts/cards.js';
import { overlap, outside } from '../../src/charts/canvas-kit.js';
import { chartSize, drawChart } from '../../src/charts/draw.js';
import { registerChartFonts, registerJapaneseFonts } from '../../src/charts/fonts.js';
import { textWidth } from '../../src/charts/header.js';
import { font, LIMITS, SIZE } from '../../src/charts/theme.js';
import {
  HERO_PERFORMANCE_TOP,
  isCard,
  MATCH_CARD_PLAYERS,
  parseChartSpec,
  type ChartSpec,
  type HeroPerformance,
  type HeroPerformanceChart,
  type LadderCard,
  type TableCard,
  type MatchCard,
  type ProfileCard,
} from '../../src/charts/specs.js';
import { heroNameLabel } from '../../src/charts/heroes.js';
import { sessionCardSpec } from '../../commands/session.js';
import type { Session } from '../../src/game/sessions.js';
import type { RecordedMatch } from '../../src/game/tracking.js';
import { floorOfLevel, tierOfLevel } from '../../src/game/ranks.js';
import { seasonFromIndex } from '../../src/game/seasons.js';
import { seasonLabel } from '../../src/render/common.js';
import { duration, integer } from '../../src/i18n/format.js';
import { LOCALES, runInLocale, type Locale } from '../../src/i18n/index.js';
import { heroDisplayName, tierName } from '../../src/i18n/names.js';
import type { PlayerProfile } from '../../src/api/schemas.js';
import { matches, profiles } from '../game/samples.js';
import { pngSize } from './png.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';
import { recordingCharts } from '../helpers/charts.js';
import { encodeCustomId } from '../../src/render/custom-id.js';

const env = useReplicaBot();

const DOUBLE_C = 'doublec8-double-c-1786151874-2025-08-05.json';
const MATCH = '6713355_1740604074_322_11001_10';
/** The real match with the most rows in a team: 14 players, Team B's 8 with its replacements and leavers. */
const MOST_ROWS = '6713371_1740603484_820_11001_10';
/** Play time the API reports for the most played hero of all players (/hero's statistics): the largest figure a card may show. */
const MOST_PLAY_TIME = 166_071 * 3_600 + 50 * 60;
/** The longest map name of the API's map lists (api-samples/maps). */
const LONGEST_MAP = 'Intergalactic Empire of Wakanda: Birnin T’Challa';
const LEVELS = Array.from({ length: 23 }, (_, i) => i + 1);

registerChartFonts();
registerJapaneseFonts();

/** The level at or below `below` whose tier the game names widest in `locale`, as a card draws a tier. */
function longestLevel(locale: Locale, below = 23): number {
  const drawn = (level: number) =>
    textWidth(
      runInLocale(locale, () => tierName(tierOfLevel(level))!),
      font(30, 600),
    );
  return LEVELS.filter((l) => l <= below).reduce((a, b) => (drawn(b) > drawn(a) ? b : a));
}

/** Draws `spec` as the worker does and returns the protected texts it cut. */
async function cutsOf(spec: ChartSpec): Promise<CardCut[]> {
  return (await drawn(spec)).cuts;
}

/** Draws `spec` as the worker does: the protected texts it cut, where it put each part, and the image's size. */
async function drawn(spec: ChartSpec): Promise<{ cuts: CardCut[]; boxes: CardBox[]; size: { width: number; height: number } }> {
  const cuts: CardCut[] = [];
  const boxes: CardBox[] = [];
  const png = await drawChart(spec, { onCut: (cut) => cuts.push(cut), onBox: (box) => boxes.push(box) });
  return { cuts, boxes, size: pngSize(png) };
}

/** How many rows a match card laid out. */
const rowsOf = (boxes: CardBox[]) => boxes.filter((b) => b.kind === 'row').length;

/**
 * What runs into what on a card: two rows whose boxes intersect, two parts (texts as the glyphs drawn, portraits, badges)
 * anywhere on the card whose boxes intersect, and a part not wholly on the card.
 */
function collisions(boxes: CardBox[], size: { width: number; height: number }): string[] {
  const out: string[] = [];
  const rows = boxes.filter((b) => b.kind === 'row');
  const parts = boxes.filter((b) => b.kind !== 'row');
  for (const group of [rows, parts]) {
    group.forEach((a, i) => {
      for (const b of group.slice(i + 1)) if (overlap(a.box, b.box) > 0) out.push(`${a.field} runs into ${b.field}`);
    });
  }
  // Square pixels: a box's area less its overlap with the card can differ from 0 by a rounding.
  for (const b of boxes) if (outside(b.box, { x: 0, y: 0, w: size.width, h: size.height }) > 0.01) out.push(`${b.field} is off the card`);
  return out;
}

/** `card` with the longest hero names, the longest map name, the longest match and five-digit figures on every row. */
function extremeMatch(card: MatchCard, heroes: string[]): MatchCard {
  return {
    ...card,
    subtitle: `${LONGEST_MAP} · ${duration(59 * 60 + 59)}`,
    teams: card.teams.map((t) => ({
      ...t,
      players: t.players.map((p, i) => ({ ...p, hero: heroes[i % 3]!, kda: '99/99/99', figures: `${integer(99_999)} · ${integer(99_999)}` })),
    })),
  };
}

/** The card of `view`, checked as the worker checks it. */
function cardOf<K extends ChartSpec['kind']>(charts: { spec: ChartSpec }[] | undefined, kind: K): Extract<ChartSpec, { kind: K }> {
  const spec = (charts ?? []).map((c) => c.spec).find((s) => isCard(s) && s.kind === kind);
  expect(spec, `a ${kind}`).toBeDefined();
  return parseChartSpec(spec) as Extract<ChartSpec, { kind: K }>;
}

/**
 * Double C's real profile pushed to the longest values: the three heroes with the longest names on top with five-digit
 * records, 166,071h 50m of play time, a record of five digits, and the season's rank at `level` (score at its floor, so
 * that the pace tile names the next division).
 */
async function extremeProfile(level: number): Promise<PlayerProfile> {
  const p = structuredClone(profiles[DOUBLE_C]!);
  const heroes = (await env.b.ctx.heroes.list()).sort((a, b) => b.name.length - a.name.length).slice(0, 3);
  p.name = 'AVeryLongPlayerNameIndeed';
  p.heroes_ranked = p.heroes_ranked.slice(0, 3).map((h, i) => ({
    ...h,
    hero_id: heroes[i]!.id,
    hero_name: heroes[i]!.name,
    matches: 12_345 - i,
    wins: 6_789,
    kills: 99_999,
    deaths: 1,
    assists: 99_999,
    play_time: MOST_PLAY_TIME / 4,
  }));
  p.heroes_unranked = [];
  p.overall.ranked = { ...p.overall.ranked, matches: 12_345, wins: 6_789, kills: 99_999, deaths: 1, assists: 99_999, play_time: MOST_PLAY_TIME };
  p.overall.unranked = { ...p.overall.unranked, play_time: 0 };
  const latest = p.rank_seasons.reduce((a, b) => ((b.rank_game_id ?? 0) > (a.rank_game_id ?? 0) ? b : a));
  Object.assign(latest, { level, rank_score: floorOfLevel(Math.min(level, 22)) + 1, max_level: level, max_rank_score: floorOfLevel(Math.min(level, 22)) + 1 });
  // No competitive match newer than the season's entry: the entry is the rank shown.
  latest.update_time = Math.max(latest.update_time ?? 0, ...p.recent_matches.map((m) => m.time ?? 0)) + 60;
  return p;
}

const fetched = (data: PlayerProfile) => ({ data, fetchedAt: env.b.clock.now, ageMs: 0, stale: false, source: 'upstream' as const });

describe.each(LOCALES)('the cards and the heroes chart in %s cut no figure, tier or hero name', (locale) => {
  it('the profile card, at the longest tier and with the longest tier as the pace’s target', async () => {
    for (const level of [longestLevel(locale), longestLevel(locale, 22) - 1]) {
      const view = await runInLocale(locale, async () => playerView(fetched(await extremeProfile(level)), 'profile', 1, null, env.b.ctx));
      const card: ProfileCard = cardOf(view.charts, 'profile-card');
      expect(card.locale).toBe(locale);
      // The values are the longest there are: the drawing has them to fit.
      expect(card.labels.roles).toContain(runInLocale(locale, () => duration(MOST_PLAY_TIME)));
      expect(card.heroes.map((h) => h.name)).toContain('Jeff the Land Shark');
      expect(card.rank.tier).toBe(tierOfLevel(level));
      if (level < 22) expect(card.tiles[3]!.label).toContain(runInLocale(locale, () => tierName(tierOfLevel(level + 1))!));
      expect(await cutsOf(card), `level ${level}`).toEqual([]);
    }
  });

  it('the profile card, its rank of another season than the one it is headed with, at the longest tier', async () => {
    const level = longestLevel(locale);
    const p = await extremeProfile(level);
    // Season 1.5 (rank game 3): the longest season number, asked for while the API gives the current season's totals.
    const older = p.rank_seasons.find((s) => s.rank_game_id === 3)!;
    Object.assign(older, { level, rank_score: floorOfLevel(Math.min(level, 22)) + 1, max_level: level, max_rank_score: 9_999.9 });
    const season = seasonFromIndex(2)!;
    const view = await runInLocale(locale, async () => playerView(fetched(p), 'profile', 1, season, env.b.ctx, false));
    const card: ProfileCard = cardOf(view.charts, 'profile-card');
    expect(card.rank.season).toBe(runInLocale(locale, () => seasonLabel(season)));
    expect(card.season).not.toContain(card.rank.season);
    expect(card.rank.tier).toBe(tierOfLevel(level));
    expect(await cutsOf(card)).toEqual([]);
  });

  it('the match card, with the longest hero names, map name and five-digit figures, its rows apart', async () => {
    const heroes = (await env.b.ctx.heroes.list()).map(heroDisplayName).sort((a, b) => b.length - a.length);
    for (const id of [MATCH, MOST_ROWS]) {
      const view = await runInLocale(locale, () => matchView(id, env.b.ctx));
      const card = runInLocale(locale, () => extremeMatch(cardOf(view.charts, 'match-card'), heroes));
      const { cuts, boxes, size } = await drawn(card);
      expect(cuts, id).toEqual([]);
      expect(rowsOf(boxes), id).toBe(card.teams.reduce((n, t) => n + t.players.length, 0));
      expect(collisions(boxes, size), id).toEqual([]);
    }
  });

  it('the match card of every real match: every row drawn, none running into another, no part into another', async () => {
    for (const id of Object.keys(matches)) {
      const view = await runInLocale(locale, () => matchView(id, env.b.ctx));
      const card: MatchCard = cardOf(view.charts, 'match-card');
      const { cuts, boxes, size } = await drawn(card);
      // Every player of the match has a row: none left out for want of room.
      expect(
        card.teams.reduce((n, t) => n + t.players.length, 0),
        id,
      ).toBe(matches[id]!.players.length);
      expect(rowsOf(boxes), id).toBe(matches[id]!.players.length);
      expect(size, id).toEqual(chartSize(card));
      expect(cuts, id).toEqual([]);
      expect(collisions(boxes, size), id).toEqual([]);
    }
  });

  it('a match card with the most rows a team may have, at the longest values: taller, within the limits, nothing overlapping', async () => {
    const heroes = (await env.b.ctx.heroes.list()).map(heroDisplayName).sort((a, b) => b.length - a.length);
    const view = await runInLocale(locale, () => matchView(MOST_ROWS, env.b.ctx));
    const real: MatchCard = cardOf(view.charts, 'match-card');
    const full = {
      ...real,
      teams: real.teams.map((t) => ({ ...t, players: Array.from({ length: MATCH_CARD_PLAYERS }, (_, i) => t.players[i % t.players.length]!) })),
    };
    const card = parseChartSpec(runInLocale(locale, () => extremeMatch(full, heroes))) as MatchCard;
    const { cuts, boxes, size } = await drawn(card);
    expect(size.height).toBeGreaterThan(SIZE.height);
    expect(size.height).toBeLessThanOrEqual(LIMITS.height);
    expect(rowsOf(boxes)).toBe(2 * MATCH_CARD_PLAYERS);
    expect(cuts).toEqual([]);
    expect(collisions(boxes, size)).toEqual([]);
  });

  it('the ranked heroes chart, with the ten longest hero names: each drawn whole on the canvas, never cut nor shortened', async () => {
    const heroes = (await env.b.ctx.heroes.list()).sort((a, b) => heroDisplayName(b).length - heroDisplayName(a).length).slice(0, HERO_PERFORMANCE_TOP);
    const p = structuredClone(profiles[DOUBLE_C]!);
    const row = p.heroes_ranked[0]!;
    p.heroes_ranked = heroes.map((h, i) => ({ ...row, hero_id: h.id, hero_name: h.name, play_time: (HERO_PERFORMANCE_TOP - i) * 3_600 }));
    const view = await runInLocale(locale, async () => playerView(fetched(p), 'ranked', 1, null, env.b.ctx));
    const spec = (view.charts ?? []).map((c) => parseChartSpec(c.spec)).find((c) => c.kind === 'hero-performance')!;
    expect(spec.locale).toBe(locale);
    expect(spec.heroes.map((h) => h.name)).toContain('Jeff the Land Shark');
    const { cuts, boxes, size } = await drawn(spec);
    // Every name was laid out and looked at: ten of them, the longest there are.
    expect(boxes.map((b) => b.field).sort()).toEqual(spec.heroes.map((_, i) => `heroes[${i}].name`).sort());
    expect(cuts).toEqual([]);
    expect(collisions(boxes, size)).toEqual([]);
  });

  it('the ladder card, every member at the longest tier with the largest score and week', async () => {
    const guildId = MEMBER.guildId;
    const now = env.b.clock.now;
    await env.b.state.ladder.configure(guildId, { enabled: true }, now);
    const level = longestLevel(locale);
    for (let i = 0; i < 10; i++) {
      const userId = `2000000000000001${String(i).padStart(2, '0')}`;
      const uid = String(900_000_000 + i);
      await env.b.ctx.links.link(userId, { uid, name: `A member with a very long display name ${i}` }, true, now);
      await env.b.state.database.db.updateTable('account_links').set({ verified_at: now }).where('user_id', '=', userId).execute();
      await env.b.state.ladder.join(guildId, userId, now, {});
      await env.b.state.ladder.setStanding(
        uid,
        { season: 5, tier: tierOfLevel(level), score: 9_999.9 - i, peak: 9_999.9, matches: 999, role: null, weekDelta: -1_234.5, private: false },
        now,
      );
    }
    const charts = recordingCharts();
    await env.b.router.command('ladder', { options: {}, subcommand: 'show', user: { ...MEMBER, locale } }, { ...env.b.ctx, charts });
    const card: LadderCard = cardOf(
      charts.specs.map((spec) => ({ spec })),
      'ladder-card',
    );
    expect(card.locale).toBe(locale);
    expect(card.rows).toHaveLength(10);
    expect(await cutsOf(card)).toEqual([]);
  });

  it('the season ladder card at its deepest page: four-digit places, every text whole', async () => {
    const charts = recordingCharts();
    await env.b.router.component(encodeCustomId('lb.t', 'pc', '', 100, 'l'), [], { ...MEMBER, locale }, MEMBER.userId, { ...env.b.ctx, charts });
    const card: LadderCard = cardOf(
      charts.specs.map((spec) => ({ spec })),
      'ladder-card',
    );
    expect(card.locale).toBe(locale);
    expect(card.rows.at(-1)!.position).toMatch(/^1\D?000$/);
    expect(await cutsOf(card)).toEqual([]);
  });

  it('the session card at its longest: the two longest tiers crossed, eight matches of the longest heroes, five-digit figures', async () => {
    const top = longestLevel(locale);
    const [before, after] = [tierOfLevel(longestLevel(locale, top - 1)), tierOfLevel(top)];
    const heroes = (await env.b.ctx.heroes.list()).sort((a, b) => b.name.length - a.name.length).slice(0, 8);
    const matches: RecordedMatch[] = heroes.map((h, i) => ({
      matchUid: `m${i}`,
      time: 1_765_000_000 + i * 1_200,
      season: 9,
      modeId: 2,
      ranked: true,
      heroId: h.id,
      won: i % 2 === 0,
      newScore: 4_000 + i,
      scoreChange: i % 2 === 0 ? 99.9 : -99.9,
      newLevel: null,
      kills: 99_999,
      deaths: 99_999,
      assists: 99_999,
    }));
    const session: Session = {
      matches,
      start: matches[0]!.time,
      end: matches.at(-1)!.time,
      wins: 4,
      losses: 4,
      draws: 0,
      scoreBefore: 1_000,
      scoreAfter: 9_999.9,
      tierBefore: before,
      tierAfter: after,
      heroes: [],
      best: matches[0]!,
      season: 9,
    };
    const names = new Map(heroes.map((h) => [h.id, runInLocale(locale, () => heroDisplayName(h))]));
    const card = runInLocale(locale, () => sessionCardSpec(`Session · AVeryLongPlayerNameIndeed`, session, (id) => names.get(id!) ?? '?'));
    expect(card.locale).toBe(locale);
    expect(card.rows).toHaveLength(8);
    const { cuts, boxes, size } = await drawn(card);
    expect(cuts).toEqual([]);
    expect(collisions(boxes, size)).toEqual([]);
  });

  it('the session card of a real profile: its tiles, the tiers crossed and every match, nothing cut, nothing overlapping', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: '1786151874', name: 'Double C' }, true, env.b.clock.now);
    const charts = recordingCharts();
    await runInLocale(locale, () => env.b.router.command('session', { options: {}, user: { ...MEMBER, locale } }, { ...env.b.ctx, charts }));
    const card: TableCard = cardOf(
      charts.specs.map((spec) => ({ spec })),
      'table-card',
    );
    expect(card.locale).toBe(locale);
    expect(card.tiles.length).toBeGreaterThanOrEqual(2);
    expect(card.rows.length).toBeGreaterThan(0);
    const { cuts, boxes, size } = await drawn(card);
    expect(cuts).toEqual([]);
    expect(rowsOf(boxes)).toBe(card.rows.length);
    expect(collisions(boxes, size)).toEqual([]);
  });
});

describe('the heroes chart sets a name too wide for its line smaller, then on lines, and never cuts it', () => {
  const hero = (name: string, hours: number): HeroPerformance => ({ name, role: 'Strategist', playTimeSeconds: hours * 3_600, winRate: 0.5, kda: 3 });
  const LONG = 'Jeff the Land Shark the Second';
  const LONGER = 'Jeff the Land Shark, Keeper of the Intergalactic Empire of Wakanda: Birnin T’Challa';

  it('a name wider than its line at the label size: one line, smaller', () => {
    expect(heroNameLabel('Jeff the Land Shark', 320)).toEqual({ label: 'Jeff the Land Shark', size: 24 });
    const { label, size } = heroNameLabel(LONG, 320);
    expect(label).toBe(LONG);
    expect(size).toBeLessThan(24);
    expect(textWidth(LONG, font(size, 600))).toBeLessThanOrEqual(320);
  });

  it('a name too wide even at the smallest size: whole words on lines that fit', () => {
    const { label, size } = heroNameLabel(LONGER, 320);
    expect(Array.isArray(label) && label.join(' ')).toBe(LONGER);
    expect((label as string[]).every((line) => textWidth(line, font(size, 600)) <= 320)).toBe(true);
  });

  it('draws such names whole on the canvas, apart from each other, among ten heroes and among three', async () => {
    const ten: HeroPerformanceChart = {
      kind: 'hero-performance',
      title: 'Heroes',
      heroes: [hero(LONG, 10), ...Array.from({ length: 9 }, (_, i) => hero(['Mister Fantastic', 'Invisible Woman', 'Captain America'][i % 3]!, 9 - i))],
    };
    const three: HeroPerformanceChart = { kind: 'hero-performance', title: 'Heroes', heroes: [hero(LONGER, 3), hero(LONG, 2), hero('Jeff the Land Shark', 1)] };
    for (const spec of [ten, three]) {
      const { cuts, boxes, size } = await drawn(spec);
      expect(boxes).toHaveLength(spec.heroes.length);
      expect(cuts).toEqual([]);
      expect(collisions(boxes, size)).toEqual([]);
    }
  });
});

describe('the overlap check', () => {
  it('finds two rows, or two parts, that run into each other, and a part off the card', () => {
    const row = (field: string, y: number): CardBox => ({ field, kind: 'row', box: { x: 28, y, w: 366, h: 50 } });
    const part = (field: string, y: number): CardBox => ({ field, kind: 'text', box: { x: 100, y, w: 80, h: 20 } });
    expect(collisions([row('a', 100), row('b', 150), part('a.name', 110), part('b.name', 160)], SIZE)).toEqual([]);
    expect(collisions([row('a', 100), row('b', 149), part('a.hero', 135), part('b.name', 152), part('c', 440)], SIZE)).toEqual([
      'a runs into b',
      'a.hero runs into b.name',
      'c is off the card',
    ]);
  });
});

describe('the cut report', () => {
  it('names a protected text the card had to cut, and stays silent for free text cut', async () => {
    const card: LadderCard = {
      kind: 'ladder-card',
      title: 'A title long enough to be cut by the card, since nothing on a card is ever wider than its eight hundred pixels',
      subtitle: '',
      weekLabel: '',
      rows: [{ position: '1', name: 'x'.repeat(100), tier: 'Gold II', score: '1'.repeat(60), week: '', trend: 'none', you: false }],
    };
    expect(await cutsOf(card)).toEqual([{ field: 'rows[0].score', text: '1'.repeat(60), shown: expect.stringMatching(/^1+…$/) as string }]);
  });
});

/**
 * Every figure says what it counts, on every real profile: the profile card's top heroes and its embed's text count the
 * mode their label names (the ranked list beside the ranked tiles); the card's role shares are the Statistics embed's;
 * "Among all players" says each standing in plain words and leaves out one with nothing behind it; `/compare` with a past
 * season shows that season's totals or says whose they are. Expectations are read from the raw JSON, not from the bot.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { APIEmbed } from 'discord-api-types/v10';
import { playerView } from '../../commands/player.js';
import { parseChartSpec, type ProfileCard } from '../../src/charts/specs.js';
import { currentSeason } from '../../src/game/profile.js';
import { seasonLabel } from '../../src/render/common.js';
import { withoutCards } from '../../src/render/view-charts.js';
import { toMessagePayload } from '../../src/render/view.js';
import { LOCALES, runInLocale, trIn } from '../../src/i18n/index.js';
import { bot, useReplicaBot } from '../helpers/bot.js';
import { everyRawProfile, schemas } from '../game/samples.js';

const env = useReplicaBot();

/** Every real profile's raw JSON, by file name: the replica's, the shared captures' and the fixtures'. */
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
const RAW: Record<string, Raw> = {
  ...Object.fromEntries(
    readdirSync(FIXTURES_DIR)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES_DIR, f), 'utf8')) as Raw]),
  ),
  ...(everyRawProfile() as Record<string, Raw>),
};

type Raw = Record<string, unknown> & { uid: unknown; heroes_ranked?: RawHero[]; heroes_unranked?: RawHero[]; match_history?: RawMatch[] };
interface RawHero {
  hero_id: unknown;
  hero_name: unknown;
  matches: unknown;
  wins: unknown;
  play_time: unknown;
}
interface RawMatch {
  game_mode_id: unknown;
}

const num = (v: unknown) => Number(v ?? 0) || 0;
const fetchedOf = (body: Raw) => ({ data: schemas.player.parse(body), fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const });
/** "63.2 %": a win rate as the English answers write it. */
const rate = (wins: number, matches: number) => `${((wins / matches) * 100).toFixed(1)} %`;
const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));

/** One raw hero list added up by hero, most play time first; heroes with neither a match nor play time left out. */
function listed(rows: RawHero[] | undefined): { name: string; matches: number; wins: number }[] {
  const by = new Map<string, { name: string; matches: number; wins: number; time: number }>();
  for (const h of rows ?? []) {
    if (num(h.matches) === 0 && num(h.play_time) === 0) continue;
    const key = String(h.hero_id ?? h.hero_name);
    const t = by.get(key) ?? { name: String(h.hero_name), matches: 0, wins: 0, time: 0 };
    t.matches += num(h.matches);
    t.wins += num(h.wins);
    t.time += num(h.play_time);
    by.set(key, t);
  }
  return [...by.values()].sort((a, b) => b.time - a.time || b.matches - a.matches);
}

async function profileAnswer(body: Raw) {
  const view = await playerView(fetchedOf(body), 'profile', 1, null, env.b.ctx);
  const card = parseChartSpec(view.charts![0]!.spec) as ProfileCard;
  const text = toMessagePayload(withoutCards(view)).embeds[0]!;
  return { card, text };
}

describe('the profile card’s top heroes and the embed’s count the mode their label names', () => {
  it('the hero lists are the mode totals by hero: their matches and wins add up to the ranked and unranked records', () => {
    let checked = 0;
    for (const [file, body] of Object.entries(RAW)) {
      const totals = (body.overall_stats ?? {}) as Record<string, Record<string, unknown> | undefined>;
      for (const mode of ['ranked', 'unranked'] as const) {
        const rows = mode === 'ranked' ? body.heroes_ranked : body.heroes_unranked;
        if (!rows?.length) continue;
        const sum = (key: 'matches' | 'wins') => rows.reduce((n, h) => n + num(h[key]), 0);
        expect([sum('matches'), sum('wins')], `${file} ${mode}`).toEqual([num(totals[mode]?.total_matches), num(totals[mode]?.total_wins)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(15);
  });

  for (const [file, body] of Object.entries(RAW)) {
    it(file, async () => {
      const { card, text } = await profileAnswer(body);
      const ranked = listed(body.heroes_ranked);
      const unranked = listed(body.heroes_unranked);
      // The card's heroes and the embed's text carry one label.
      const field = (text.fields ?? []).find((f) => f.name === card.labels.heroes);
      expect(field, `${file}: ${card.labels.heroes}`).toBeDefined();
      const lines = field!.value.split('\n');
      expect(lines).toHaveLength(card.heroes.length);
      const [wins, losses] = card.tiles[0]!.value.split('–').map((x) => Number(x.replace(/\D/g, '')));
      if (ranked.length > 0 || unranked.length > 0) {
        // Ranked heroes beside the ranked tiles; a player with no ranked hero gets the unranked ones, named so.
        const list = ranked.length > 0 ? ranked : unranked;
        expect(card.labels.heroes, file).toBe(ranked.length > 0 ? 'Top heroes · Ranked' : 'Top heroes · Unranked');
        card.heroes.forEach((shown, i) => {
          const want = list[i]!;
          expect(shown.name.toLowerCase(), file).toBe(want.name.toLowerCase());
          if (want.matches === 0) return;
          expect(shown.lines[0], `${file} ${shown.name}`).toBe(`${rate(want.wins, want.matches)} · ${want.matches}`);
          expect(lines[i], `${file} ${shown.name}`).toContain(
            ` · ${want.matches} match${want.matches === 1 ? '' : 'es'} · ${rate(want.wins, want.matches)} · `,
          );
          // No ranked hero has played more ranked matches than the ranked tile counts.
          if (ranked.length > 0 && wins !== undefined && losses !== undefined) expect(want.matches, file).toBeLessThanOrEqual(wins + losses);
        });
        return;
      }
      // Empty hero lists: the recent matches of one mode, counted in the label.
      const rows = body.match_history ?? [];
      const competitive = rows.filter((m) => num(m.game_mode_id) === 2).length;
      const m = /^Top heroes \(latest (\d+) (ranked|unranked) match(es)?\)$/.exec(card.labels.heroes);
      expect(m, `${file}: ${card.labels.heroes}`).not.toBeNull();
      expect(m![2], file).toBe(competitive > 0 ? 'ranked' : 'unranked');
      if (competitive > 0) expect(Number(m![1]), file).toBe(competitive);
      const counted = lines.reduce((n, line) => n + Number(/ · (\d+) match(es)? · /.exec(line)?.[1] ?? 0), 0);
      expect(counted, file).toBeLessThanOrEqual(Number(m![1]));
    });
  }

  it('in every language, the label names the mode as the profile’s own record fields do', async () => {
    const doubleC = RAW['doublec8-double-c-1786151874-2025-08-05.json']!;
    const hayama = RAW['autumnnippert-hayamaken-1402468705.json']!;
    for (const locale of LOCALES) {
      for (const [body, mode] of [
        [doubleC, 'ranked'],
        [hayama, 'unranked'],
      ] as const) {
        const { card, text } = await runInLocale(locale, () => profileAnswer(body));
        expect(card.labels.heroes, locale).toContain(trIn(locale, `player:profile.${mode}`));
        expect(
          (text.fields ?? []).some((f) => f.name === card.labels.heroes),
          locale,
        ).toBe(true);
      }
    }
  });
});

/** "Duelist 5h 31m (85 %)" → ["Duelist", "85 %"]. */
function embedRole(part: string): [string, string] {
  const m = /^(.+?) (?:\d+h \d+m|\d+m \d+s) \(([^)]+)\)$/.exec(part);
  expect(m, part).not.toBeNull();
  return [m![1]!, m![2]!];
}

describe('the card’s play time by role is the Statistics embed’s', () => {
  for (const [file, body] of Object.entries(RAW)) {
    it(file, async () => {
      const { card } = await profileAnswer(body);
      const stats = (await playerView(fetchedOf(body), 'stats', 1, null, env.b.ctx)).embeds![0]!;
      const field = (stats.fields ?? []).find((f) => f.name.startsWith('Play time by role'));
      if (!field) return expect(card.roles, file).toEqual([]);
      const parts = field.value.split(' · ').map(embedRole);
      // The same roles in the same order, each with the same share, written the same way.
      expect(
        card.roles.map((r) => r.label),
        file,
      ).toEqual(parts.map(([role, share]) => `${role} ${share}`));
      const sum = card.roles.reduce((s, r) => s + r.seconds, 0);
      for (const r of card.roles) {
        const whole = Math.round((r.seconds / sum) * 100);
        expect(r.label, file).toMatch(new RegExp(` ${whole === 0 ? '<1' : whole} %$`));
      }
      const stated = (['ranked', 'unranked'] as const).reduce(
        (s, mode) => s + num((body.overall_stats as Record<string, Record<string, unknown>>)[mode]?.total_time_played_raw),
        0,
      );
      if (field.name === 'Play time by role') {
        // From the hero lists: the shares are of the profile's own play time, as the card's title says.
        expect(Math.abs(sum - stated), file).toBeLessThanOrEqual(stated * 0.005 + 1);
        expect(card.labels.roles, file).toMatch(/^Play time by role · /);
      } else {
        // From the recent matches, as both say.
        const n = /^Play time by role \(latest (\d+) match(es)?\)$/.exec(field.name)![1];
        expect(card.labels.roles, file).toBe(`By role · latest ${n} match${n === '1' ? '' : 'es'}`);
      }
    });
  }
});

const STANDINGS = [
  ['win_rate', 'Win rate', ['total_wins', 'win_percentage']],
  ['kda', 'KDA', ['overall_kda']],
  ['mvp', 'MVP rate', ['total_mvps', 'mvp_percentage']],
  ['svp', 'SVP rate', ['total_svps', 'svp_percentage']],
  ['kills', 'Kills', ['total_kills']],
] as const;

/** The standings a profile's raw placement texts ("Bottom 31.0%", "Top 5.0%") should read as, in English. */
function expectedStandings(body: Raw): string[] {
  const stats = (body.overall_stats ?? {}) as Record<string, unknown>;
  return STANDINGS.flatMap(([, what, path]) => {
    let block: unknown = stats;
    for (const key of path) block = (block as Record<string, unknown> | undefined)?.[key];
    const b = (block ?? {}) as Record<string, unknown>;
    const text = [b.placement, b.percentile].find((v): v is string => typeof v === 'string');
    const m = text ? /^(Top|Bottom) ([\d.]+)%$/.exec(text.trim()) : null;
    if (!m) return [];
    const value = Number(m[2]);
    if (m[1] === 'Top') return [`${what}: top ${Math.max(1, Math.ceil(value))} %`];
    return Math.floor(value) >= 1 ? [`${what}: better than ${Math.floor(value)} % of players`] : [];
  });
}

async function standingOf(body: Raw): Promise<string | undefined> {
  const stats = (await playerView(fetchedOf(body), 'stats', 1, null, env.b.ctx)).embeds![0]!;
  return fieldsOf(stats)['Among all players'];
}

describe('“Among all players” in plain words', () => {
  for (const [file, body] of Object.entries(RAW)) {
    it(file, async () => {
      const line = await standingOf(body);
      const want = expectedStandings(body);
      const shown = (line ?? '').split(' · ').filter((part) => !part.startsWith('best kill streak') && part !== '');
      expect(shown, file).toEqual(want);
      // Never the API's own phrase, never a standing of nothing.
      expect(line ?? '', file).not.toMatch(/bottom|\b0(\.0)? ?%/i);
    });
  }

  it('a top placement reads “top n %”, rounded up; one that comes to nothing is left out', async () => {
    const body = structuredClone(RAW['doublec8-double-c-1786151874-2025-08-05.json']!) as Raw & { overall_stats: Record<string, Record<string, unknown>> };
    const o = body.overall_stats;
    (o.total_wins!.win_percentage as Record<string, unknown>).placement = 'Top 12.0%';
    o.overall_kda!.percentile = 'Bottom 0.4%';
    (o.total_mvps!.mvp_percentage as Record<string, unknown>).placement = 'Top 4.2%';
    (o.total_svps!.svp_percentage as Record<string, unknown>).placement = 'Bottom 49.6%';
    o.total_kills!.percentile = 'Top 0.0%';
    expect(await standingOf(body)).toBe(
      'Win rate: top 12 % · MVP rate: top 5 % · SVP rate: better than 49 % of players · Kills: top 1 % · best kill streak 18',
    );
    expect(expectedStandings(body)).toHaveLength(4);
  });
});

describe('/compare with a past season shows that season’s totals, or says whose they are', () => {
  const SIR_FINAL = '1117455441';
  const CARD1GAN = '1403392756';
  const SEASON = 2;

  /** The column's expected note: none when the profile's own season is the one asked (the API's answer is that season's). */
  const noteFor = (body: Raw) => {
    const own = currentSeason(schemas.player.parse(body));
    return own?.number === String(SEASON) ? null : `Totals from ${own ? seasonLabel(own) : 'Current season'}: the API has none for Season ${SEASON}`;
  };

  it('on every real profile, served as the player’s profile whatever season is asked (an API that keeps no past season)', { timeout: 120_000 }, async () => {
    const served = new Map(env.r.dataset.players);
    let noted = 0;
    try {
      for (const [file, body] of Object.entries(RAW)) {
        const uid = String(body.uid);
        const other = uid === SIR_FINAL ? CARD1GAN : SIR_FINAL;
        env.r.dataset.players.set(uid, body);
        const own = bot(env.r);
        try {
          const { payload, view } = await own.run('compare', { player: uid, other, season: SEASON });
          expect(view.isError, file).toBeFalsy();
          const embed = payload.embeds[0]!;
          expect(embed.description, file).toMatch(new RegExp(`^Season ${SEASON}:`));
          const [a, b] = embed.fields!;
          for (const [column, raw] of [
            [a!, body],
            [b!, served.get(other) as Raw],
          ] as const) {
            const note = noteFor(raw);
            const second = column.value.split('\n')[1];
            if (note === null) expect(column.value, file).not.toMatch(/Totals from/);
            else {
              expect(second, `${file}: ${column.name}`).toBe(note);
              noted++;
            }
          }
        } finally {
          await own.close();
        }
      }
    } finally {
      for (const [uid, body] of served) env.r.dataset.players.set(uid, body);
    }
    expect(noted).toBeGreaterThan(Object.keys(RAW).length);
  });

  it('a season the API gives separate totals for is shown as that season’s, with no note', async () => {
    const doubleC = '1786151874';
    const s2 = structuredClone(env.r.dataset.players.get(doubleC)!) as { overall_stats: { ranked: Record<string, unknown> } };
    s2.overall_stats.ranked = { ...s2.overall_stats.ranked, total_matches: 99, total_wins: 60 };
    env.r.dataset.seasonProfiles.set(`${doubleC}:${SEASON}`, s2);
    const own = bot(env.r);
    try {
      const { payload } = await own.run('compare', { player: doubleC, other: SIR_FINAL, season: SEASON });
      const [a, b] = payload.embeds[0]!.fields!;
      expect(a!.value).toMatch(/\n99 ranked matches · 60\.6 % won\n/);
      expect(a!.value).not.toMatch(/Totals from/);
      // The other player's answer is the current one: said so.
      expect(b!.value.split('\n')[1]).toBe(`Totals from Season 1.5: the API has none for Season ${SEASON}`);
    } finally {
      env.r.dataset.seasonProfiles.delete(`${doubleC}:${SEASON}`);
      await own.close();
    }
  });
});

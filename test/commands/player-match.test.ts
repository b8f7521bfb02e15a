import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { APIEmbed, APISelectMenuOption } from 'discord-api-types/v10';
import { playerView } from '../../commands/player.js';
import { PLAYER_SECTIONS } from '../../src/render/player/common.js';
import { runInLocale } from '../../src/i18n/index.js';
import type { Locale } from '../../src/i18n/locales.js';
import { embedLength, escapeText, LIMITS } from '../../src/render/limits.js';
import { toMessagePayload, type MessagePayload } from '../../src/render/view.js';
import { bot, customIds, useReplicaBot } from '../helpers/bot.js';
import { readsWhileHeldBack } from '../helpers/held-read.js';
import { matches, profiles } from '../game/samples.js';
import { decodeMatchOrigin, encodeMatchOrigin } from '../../src/render/match-origin.js';
import { expectWithin } from '../helpers/limits.js';
import { withoutCards } from '../../src/render/view-charts.js';

const env = useReplicaBot();
afterEach(() => env.r.setFaults({}));
beforeAll(() => {
  for (const m of env.r.dataset.maps) knownMapIds.add(String(m.id));
});

const withinLimits = (payload: { embeds: Parameters<typeof embedLength>[0][] }) =>
  expect(payload.embeds.reduce((s, e) => s + embedLength(e), 0)).toBeLessThanOrEqual(LIMITS.embedTotal);
const fieldsOf = (e: APIEmbed) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));
const knownMapIds = new Set<string>();
const selectOptions = (payload: MessagePayload, prefix: string): APISelectMenuOption[] =>
  payload.components
    .flatMap((row) => row.components)
    .flatMap((c) => ('custom_id' in c && c.custom_id.startsWith(prefix) && 'options' in c ? (c.options ?? []) : []));

/** The profile answer of every real sample file (the replica serves only the newest capture of a uid, so the older shapes are rendered directly). */
const PROFILE: Record<string, { title: string; score: string; peak: [string, string]; allTime: string; cover: string }> = {
  'autumnnippert-card1gan-1403392756-2025-03-06.json': {
    title: 'Grandmaster III',
    score: '4,562',
    peak: ['Peak this season', 'Grandmaster II · 4,582'],
    allTime: 'Grandmaster II · 4,604 (Season 1)',
    cover: 'Season 1.5 (current)',
  },
  'autumnnippert-hayamaken-1402468705.json': {
    title: 'Silver I (Season 1)',
    score: '3,546 (Season 1)',
    peak: ['Peak in Season 1', 'Gold III · 3,621'],
    allTime: 'Gold III · 3,621 (Season 1)',
    cover: 'Season 1.5 (current)',
  },
  'autumnnippert-sir-final-1117455441.json': {
    title: 'Grandmaster III',
    score: '4,559',
    peak: ['Peak this season', 'Grandmaster II · 4,697'],
    allTime: 'Grandmaster II · 4,697 (Season 1.5)',
    cover: 'Season 1.5 (current)',
  },
  'doublec8-double-c-1786151874-2025-05-26.json': {
    title: 'Bronze II',
    score: '3,137',
    peak: ['Peak this season', 'Bronze II · 3,137'],
    allTime: 'Silver II · 3,470 (Season 1.5)',
    cover: 'Season 2 (current)',
  },
  'doublec8-double-c-1786151874-2025-06-05.json': {
    title: 'Silver I',
    score: '3,507',
    peak: ['Peak this season', 'Silver I · 3,525'],
    allTime: 'Silver I · 3,525 (Season 2.5)',
    cover: 'Season 2.5 (current)',
  },
  'doublec8-double-c-1786151874-2025-08-05.json': {
    title: 'Gold II',
    score: '3,752',
    peak: ['Peak this season', 'Gold II · 3,763'],
    allTime: 'Gold II · 3,763 (Season 3)',
    cover: 'Season 3 (current)',
  },
  // Its newest competitive match (+19.4) came after the season's stored 5,013.
  'freddyhun-template-2025-03.json': {
    title: 'Celestial I',
    score: '5,032',
    peak: ['Peak this season', 'Celestial I · 5,066'],
    allTime: 'Celestial I · 5,066 (Season 1.5)',
    cover: 'Season 1.5 (current)',
  },
};

describe('/player profile on every real sample', () => {
  for (const [file, want] of Object.entries(PROFILE)) {
    it(`${file}: current tier and score, peaks, the season covered, top heroes`, async () => {
      const fetched = { data: profiles[file]!, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const };
      const payload = toMessagePayload(withoutCards(await playerView(fetched, 'profile', 1, null, env.b.ctx)));
      withinLimits(payload);
      const e = payload.embeds[0]!;
      const f = fieldsOf(e);
      expect(e.title).toBe(want.title);
      expect(f['Rank score']).toBe(want.score);
      expect(f[want.peak[0]]).toBe(want.peak[1]);
      expect(f['All-time peak']).toBe(want.allTime);
      const [cover, identity] = e.description!.split('\n');
      expect(cover).toBe(`Totals and heroes: the matches the API recorded in ${want.cover}`);
      expect(identity).toMatch(new RegExp(`^Level \\d+ · UID ${profiles[file]!.uid} · (PC|Playstation) · \\d+ achievements · updated <t:\\d+:R>$`));
      const topField = Object.keys(f).find((k) => k.startsWith('Top heroes'))!;
      // Ranked heroes beside the ranked record; a player with none has the unranked ones, and empty hero lists the recent matches.
      expect(topField).toBe(
        file.includes('2025-06-05') ? 'Top heroes (latest 14 ranked matches)' : file.includes('hayamaken') ? 'Top heroes · Unranked' : 'Top heroes · Ranked',
      );
      const top = f[topField]!.split('\n');
      expect(top.length).toBeGreaterThan(0);
      expect(top.length).toBeLessThanOrEqual(3);
      // A hero with play time but no completed match says so (Namor's 42 s in Double C's May ranked list).
      for (const line of top)
        expect(line).toMatch(
          /^\*\*\d\. [A-Z][^*]+\*\*( \((Duelist|Vanguard|Strategist)\))? · .+( · \d+ match(es)? · [\d.]+ % · | · no completed matches · —$)/,
        );
      expect(e.title).not.toMatch(/Invalid level|Unranked/);
      expect(JSON.stringify(payload)).not.toMatch(/Invalid level|KDA 0\.00/);
      expect(customIds(payload)).toContain('pl.u:1786151874'.replace('1786151874', profiles[file]!.uid));
    });
  }

  it('the newer shape states per-10-minute figures and play time by role, one menu away from the profile', async () => {
    const { payload } = await env.b.run('player', { query: '1786151874' });
    const f = fieldsOf(payload.embeds[0]!);
    // The profile's first screen keeps the rank, the records and the top heroes; the combat figures are the next section.
    expect(f['Per 10 minutes']).toBeUndefined();
    expect(f['Play time by role']).toBeUndefined();
    const stats = fieldsOf((await env.b.press('pl.s:1786151874:', ['stats'])).payload.embeds[0]!);
    expect(stats['Per 10 minutes · all modes']).toBe('10,810 damage · 2,770 healing · 7,290 damage taken');
    // MVPs and SVPs by mode, as the profile's totals give them: never one sum beside figures of one mode.
    const { ranked, unranked } = profiles['doublec8-double-c-1786151874-2025-08-05.json']!.overall;
    expect(stats['MVP / SVP']).toBe(`Ranked ${ranked.mvp} / ${ranked.svp} · Unranked ${unranked.mvp} / ${unranked.svp}`);
    // Phoenix is newer than the hero list: her role comes from the profile's own matchups.
    // The roles add up to the profile's total play time; 4m 33s of it is in no hero list.
    expect(stats['Among all players']).toBe(
      'Win rate: better than 31 % of players · KDA: better than 31 % of players · SVP rate: better than 11 % of players · Kills: better than 33 % of players · best kill streak 18',
    );
    expect(stats['Play time by role']).toBe('Duelist 5h 31m (85 %) · Strategist 52m 54s (14 %) · Not in the hero lists 4m 33s (1 %)');
    expect(f['Top heroes · Ranked']!.split('\n')[0]).toBe('**1. Winter Soldier** (Duelist) · 3h 1m · 19 matches · 63.2 % · 309 / 117 / 226 (KDA 4.57)');
    expect(f.Ranked).toBe('26 matches · 14 wins · 53.8 % · 462 / 194 / 288 (KDA 3.87) · 4h 27m');
  });

  it('roles in the member’s language: top heroes, play time by role, heroes played against', async () => {
    const { payload } = await runInLocale('fr', () => env.b.run('player', { query: '1786151874' }));
    const f = fieldsOf(payload.embeds[0]!);
    const stats = fieldsOf((await runInLocale('fr', () => env.b.press('pl.s:1786151874:', ['stats']))).payload.embeds[0]!);
    expect(stats['Temps de jeu par rôle']).toBe('Duelliste 5 h 31 min (85 %) · Stratège 52 min 54 s (14 %) · Hors des listes de héros 4 min 33 s (1 %)');
    expect(f['Héros les plus joués · Classée']!.split('\n')[0]).toMatch(/^\*\*1\. Winter Soldier\*\* \(Duelliste\) · /);
    const matchups = await runInLocale('de', () => env.b.press('pl.s:1786151874:', ['matchups']));
    const text = JSON.stringify(matchups.payload.embeds[0]!.fields);
    expect(text).toMatch(/\((Vorhut|Duellant|Stratege)\)/);
    expect(text).not.toMatch(/\((Vanguard|Duelist|Strategist)\)/);
  });

  it('reads the hero and map lists while the profile is on its way, not after it (a cold cache costs one round trip, not two)', async () => {
    const { view, payload } = await readsWhileHeldBack(env.r, '/api/v1/player', ['/api/v1/heroes', '/api/v1/maps'], (b) =>
      b.run('player', { query: '1403392756' }),
    );
    expect(view.isError).toBeFalsy();
    expect(fieldsOf(payload.embeds[0]!)['Top heroes · Ranked']).toMatch(/\*\*1\. [A-Z][^*]+\*\* \((Duelist|Vanguard|Strategist)\)/);
  });

  it('an empty record reads “—”, and a name lookup finds the player', async () => {
    const { payload, view } = await env.b.run('player', { query: 'HayamaKen' });
    expect(view.isError).toBeFalsy();
    const f = fieldsOf(payload.embeds[0]!);
    expect(f.Ranked).toBe('—');
    expect(f.Unranked).toBe('1 match · 0 wins · 0.0 % · 14 / 8 / 9 (KDA 2.88) · 11m 28s');
  });

  it('renders every section of every served player within limits, with no row of 0 matches', async () => {
    for (const uid of env.r.dataset.players.keys()) {
      for (const section of PLAYER_SECTIONS) {
        const { payload, view } = await env.b.press(`pl.s:${uid}:`, [section]);
        expect(view.isError, `${uid} ${section}`).toBeFalsy();
        withinLimits(payload);
        for (const id of customIds(payload)) expect(id.length).toBeLessThanOrEqual(100);
        const text = payload.embeds.map((e) => `${e.description ?? ''}\n${(e.fields ?? []).map((f) => f.value).join('\n')}`).join('\n');
        expect(text, `${uid} ${section}`).not.toMatch(/ 0 matches| 0 \/ 0 \/ 0 |Unknown\*\*|mode \d/);
        // A raw map id only for a map the API's map list does not have.
        for (const [, id] of text.matchAll(/Map (\d+)/g)) expect(knownMapIds.has(id!), `${uid} ${section} Map ${id}`).toBe(false);
      }
    }
  });
});

describe('/player sections on real data', () => {
  it('heroes played against: competitive, the best and worst by the player’s own win rate, from 3 matches, with the game’s hero names', async () => {
    const { payload } = await env.b.press('pl.s:1786151874:', ['matchups']);
    const e = payload.embeds[0]!;
    expect(e.title).toBe('Heroes played against · Competitive');
    expect(e.description).toBe(
      'The player’s own win rate in competitive matches against each opposing hero met 3 times or more.\n15 heroes met fewer than 3 times are left out.',
    );
    const f = fieldsOf(e);
    // The API's row for Cloak & Dagger reads 15 matches, 8 wins: the opposing hero's. The player won 7.
    const raw = profiles['doublec8-double-c-1786151874-2025-08-05.json']!.hero_matchups.find((m) => m.hero_name === 'cloak & dagger')!;
    expect([raw.matches, raw.wins]).toEqual([15, 8]);
    expect(f['Best matchups']!.split('\n')[0]).toBe('**Psylocke** (Duelist) · 4 matches against · won 100.0 %');
    expect(f['Worst matchups']!.split('\n')[0]).toBe('**Ultron** (Strategist) · 3 matches against · won 0.0 %');
    // Every row shown is the player's side of the API's row.
    const rows = profiles['doublec8-double-c-1786151874-2025-08-05.json']!.hero_matchups;
    for (const [, name, n, rate] of `${f['Best matchups']}\n${f['Worst matchups']}`.matchAll(
      /\*\*([^*]+)\*\* \([A-Za-z]+\) · (\d+) matches against · won ([\d.]+) %/g,
    )) {
      const row = rows.find((m) => m.hero_name?.toLowerCase() === name!.toLowerCase())!;
      expect(Number(n)).toBe(row.matches);
      expect(Number(rate)).toBeCloseTo(((row.matches - row.wins) / row.matches) * 100, 1);
    }
    for (const line of `${f['Best matchups']}\n${f['Worst matchups']}`.split('\n'))
      expect(line).toMatch(/^\*\*[A-Z][^*]+\*\* \((Duelist|Vanguard|Strategist)\) · \d+ matches against · won [\d.]+ %$/);
    expect(JSON.stringify(e)).not.toMatch(/Unknown/);
  });

  it('maps are named from the map list even where the profile gives only ids, with a map image', async () => {
    const { payload } = await env.b.press('pl.s:1786151874:', ['maps']);
    const e = payload.embeds[0]!;
    // The profile gives map ids only; 1311 is newer than the API's map list, so it alone keeps its id, beside its rows' mode.
    expect([...e.description!.matchAll(/Unknown map \((?:[^)]*, )?map (\d+)\)/g)].map((m) => m[1])).toEqual(['1311']);
    expect(e.description).toContain('**Unknown map (Competitive, map 1311)** · ');
    expect(e.description!.split('\n')[0]).toBe('**Spider-Islands (Competitive)** · 4 matches · 50.0 % · 52 / 21 / 40 (KDA 4.38)');
    expect(e.thumbnail?.url).toMatch(/^https:\/\/img\.test\/rivals\/maps\/map_\d+\.png$/);
  });

  it('ranked seasons as a table with tier names, and rank history with tier names, not levels', async () => {
    const { payload } = await env.b.press('pl.s:1786151874:', ['rank-history']);
    const e = payload.embeds[0]!;
    expect(fieldsOf(e)['Ranked seasons']!.split('\n')).toEqual([
      '**Season 3** · Gold II · 3,752 · peak Gold II 3,763 · 30 ranked wins',
      '**Season 2.5** · Gold II · 3,718 · peak Gold II 3,734 · 27 ranked wins',
      '**Season 2** · Bronze II · 3,137 · peak Bronze II 3,137 · 3 ranked wins',
      '**Season 1.5** · Silver II · 3,418 · peak Silver II 3,470 · 15 ranked wins',
      '**Season 1** · Bronze III · 3,000 · peak Bronze III 3,000 · 0 ranked wins',
      '**Season 0** · Bronze II · 3,092 · peak Bronze II 3,105 · 2 ranked wins',
      "*Season 3: 30 ranked wins by the game's own count, over the whole season. The profile's ranked totals (26 matches · 14 wins) count only the matches the API has recorded.*",
    ]);
    // One timeline, newest first: the season's last change (the header's rank), then the score after each match.
    expect(e.description!.split('\n').slice(1, 3)).toEqual([
      '<t:1754262055:R> · 3,752 · Gold II · Season 3',
      '<t:1754021918:R> · −18.5 → 3,467 · Silver I → Silver II · Season 3',
    ]);
    expect(e.description).not.toMatch(/level \d/);
  });

  it('season:0 is accepted; totals the API did not give for that season are labelled as the current season’s', async () => {
    // The replica, like an API that keeps no past season, answers season=0 exactly as without a season.
    const zero = await env.b.run('player', { query: '1403392756', season: 0 });
    expect(zero.view.isError).toBeFalsy();
    const e = zero.payload.embeds[0]!;
    expect(e.description!.split('\n').slice(0, 2)).toEqual([
      'Totals and heroes: the matches the API recorded in Season 1.5 (current)',
      'The API has no separate totals for Season 0, so these are the current season’s. Ranked seasons and recent matches are per season.',
    ]);
    expect(e.title).toBe('Diamond II');
    expect(fieldsOf(e)['Rank score']).toBe('4,283');
    expect(fieldsOf(e)['Peak in Season 0']).toBe('Diamond II · 4,320');
    expect(e.thumbnail).toBeUndefined();
    expect(customIds(zero.payload)[0]).toBe('pl.s:1403392756:0');
    const ranked = await env.b.press('pl.s:1403392756:0', ['ranked']);
    expect(ranked.payload.embeds[0]!.author!.name).toBe('Card1gan [FSYR] · Ranked heroes · Season 1.5 (current)');
    const bad = await env.b.run('player', { query: '1403392756', season: 1.55 });
    expect(bad.payload.embeds[0]!.description).toBe('There is no season “1\\.55”. Seasons are 0, 1, 1.5, 2, 2.5 and so on.');
  });

  it('a season the API gives separate totals for is labelled with that season', async () => {
    const fresh = bot(env.r);
    const s1 = structuredClone(env.r.dataset.players.get('1403392756')!) as { overall_stats: { ranked: Record<string, unknown> } };
    s1.overall_stats.ranked = {
      total_matches: 99,
      total_wins: 60,
      total_kills: 900,
      total_deaths: 300,
      total_assists: 200,
      total_time_played_raw: 36000,
      total_mvp: 4,
      total_svp: 5,
    };
    env.r.dataset.seasonProfiles.set('1403392756:1', s1);
    try {
      const asked = await fresh.run('player', { query: '1403392756', season: 1 });
      const e = asked.payload.embeds[0]!;
      expect(e.description!.split('\n')[0]).toBe('Totals and heroes: the matches the API recorded in Season 1');
      expect(fieldsOf(e).Ranked).toBe('99 matches · 60 wins · 60.6 % · 900 / 300 / 200 (KDA 3.67) · 10h 0m');
      expect(e.title).toBe('Grandmaster II');
      expect(fieldsOf(e)['Peak in Season 1']).toBe('Grandmaster II · 4,604');
      const ranked = await fresh.press('pl.s:1403392756:1', ['ranked']);
      expect(ranked.payload.embeds[0]!.author!.name).toBe('Card1gan [FSYR] · Ranked heroes · Season 1');
    } finally {
      env.r.dataset.seasonProfiles.delete('1403392756:1');
      await fresh.close();
    }
  });

  it('a season the API refuses (400) shows the current season and says so, never “check what you typed”', async () => {
    const fresh = bot(env.r);
    try {
      env.r.setFaults({ forceStatus: 400, pathPrefix: '/api/v1/player/1403392756?season' });
      const seasonal = await fresh.run('player', { query: '1403392756', season: 1 });
      expect(env.r.requests.byPath.get('/api/v1/player/1403392756')).toBeGreaterThan(0);
      expect(seasonal.view.isError, JSON.stringify(seasonal.payload)).toBeFalsy();
      expect(seasonal.payload.embeds[0]!.description).toContain('The API has no separate totals for Season 1');
      expect(fresh.logLines.some((l) => l.includes('the API refused a season'))).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('the season option filters recent matches and says so when the API has none of that season', async () => {
    const s15 = await env.b.press('pl.s:1403392756:1.5', ['matches']);
    expect(s15.payload.embeds[0]!.author!.name).toBe('Card1gan [FSYR] · Recent matches · Season 1.5');
    expect(s15.payload.embeds[0]!.description!.split('\n').filter((l) => l.startsWith('**'))).toHaveLength(10);
    const s1 = await env.b.press('pl.s:1403392756:1', ['matches']);
    expect(s1.payload.embeds[0]!.description).toBe('The API has no matches of Season 1 for this player.');
  });
});

describe('/player recent matches that always work', () => {
  it('v2 404 for a player whose profile loads means “no stored history”: v1 answers, never “no player”', async () => {
    const fresh = bot(env.r);
    try {
      const { payload, view } = await fresh.press('pl.s:1402468705:', ['matches']);
      expect(view.isError).toBeFalsy();
      expect(payload.embeds[0]!.description).toBe('**Loss** · The Thing · 14/8/9 · Shin-Shibuya · Quick Play · 11m 28s · <t:1741147395:R>');
      expect(env.r.requests.byPath.get('/api/v2/player/1402468705/match-history')).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });

  it('v2 404 and v1 down: the profile’s own recent matches, saying where they come from', async () => {
    const fresh = bot(env.r);
    env.r.setFaults({ forceStatus: 500, pathPrefix: '/api/v1/player/1117455441/match-history' });
    try {
      const { payload, view } = await fresh.press('pl.s:1117455441:', ['matches']);
      expect(view.isError).toBeFalsy();
      const lines = payload.embeds[0]!.description!.split('\n');
      expect(lines[0]).toBe(
        'The API has no stored match history for this player yet, so these are the latest 20 matches from their profile. Press **Update** to ask the API to refresh it.',
      );
      expect(lines.slice(2)).toHaveLength(10);
      for (const line of lines.slice(2))
        expect(line).toMatch(
          /^\*\*(Win|Loss)\*\* · [A-Z][^·]+ · \d+\/\d+\/\d+ · [^·]+ · (Competitive( · [+−±][\d.]*)?|Quick Play|Other mode) · \d+m \d+s( · \*disconnected\*)? · <t:\d+:R>$/,
        );
      expect(lines.filter((l) => l.includes('*disconnected*'))).toHaveLength(1);
      expect(customIds(payload)).toContain('pl.p:1117455441::matches:2:n');
      expect(customIds(payload)).toContain('pl.u:1117455441');
    } finally {
      await fresh.close();
    }
  });

  /** Serves the 2025-05-26 capture of Double C, taken the day of the captured v2 history, while `run` runs. */
  async function withMayProfile(run: (b: ReturnType<typeof bot>) => Promise<void>) {
    const may = env.r.dataset.profileCaptures.find((c) => c.file.includes('2025-05-26'))!;
    const served = env.r.dataset.players.get('1786151874')!;
    const fresh = bot(env.r);
    env.r.dataset.players.set('1786151874', may.body);
    try {
      await run(fresh);
    } finally {
      env.r.dataset.players.set('1786151874', served);
      await fresh.close();
    }
  }

  it('a 40-entry v2 page is read as 4 pages of 10, and every match shown opens from the picker', () =>
    withMayProfile(async (b) => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const { payload } = page === 1 ? await b.press('pl.s:1786151874:', ['matches']) : await b.press(`pl.p:1786151874::matches:${page}:n`);
        const rows = payload.embeds[0]!.description!.split('\n');
        const options = selectOptions(payload, 'mt.l:1786151874');
        expect(rows).toHaveLength(10);
        expect(options).toHaveLength(10);
        expect(options[0]!.label).toMatch(new RegExp(`^${(page - 1) * 10 + 1}\\. (Win|Loss) · `));
        for (const o of options) expect(o.description).toMatch(/^[A-Z][^·]* · (Competitive|Quick Play|Practice vs AI) · \d{1,2} [A-Z][a-z]{2} 2025$/);
        seen.push(...options.map((o) => o.value.split('~')[0]!));
        expect(payload.components.flatMap((r) => r.components).some((c) => 'label' in c && c.label === `Page ${page} of 4`)).toBe(true);
      }
      expect(new Set(seen).size).toBe(40);
    }));

  it('ranked rows show the rank-score change; a bot match reads “Practice vs AI”, its result not in bold', () =>
    withMayProfile(async (b) => {
      const { payload } = await b.press('pl.s:1786151874:', ['matches']);
      const lines = payload.embeds[0]!.description!.split('\n');
      expect(lines[0]).toBe('**Win** · Cloak & Dagger · 18/7/22 · Central Park · Competitive · +38.0 · 10m 43s · <t:1748299724:R>');
      const all = [];
      for (let page = 1; page <= 4; page++) all.push(...(await b.press(`pl.p:1786151874::matches:${page}:n`)).payload.embeds[0]!.description!.split('\n'));
      const bots = all.filter((l) => / · Practice vs AI · /.test(l));
      expect(bots).toHaveLength(1);
      expect(bots[0]).toMatch(/^\*(Win|Loss)\* · /);
      expect(all.filter((l) => /^\*\*(Win|Loss)\*\*/.test(l))).toHaveLength(39);
    }));

  it('game modes in the member’s language, in the rows and the open-a-match menu', () =>
    withMayProfile(async (b) => {
      const { payload } = await runInLocale('fr', () => b.press('pl.s:1786151874:', ['matches']));
      const lines = payload.embeds[0]!.description!.split('\n');
      expect(lines[0]).toMatch(/^\*\*.+\*\* · Cloak & Dagger · 18\/7\/22 · Central Park · Classée · \+38,0 · /);
      for (const o of selectOptions(payload, 'mt.l:1786151874')) expect(o.description).toMatch(/ · (Classée|Partie rapide|Entraînement contre l’IA) · /);
      const all: string[] = [];
      for (let page = 1; page <= 4; page++)
        all.push(...(await runInLocale('fr', () => b.press(`pl.p:1786151874::matches:${page}:n`))).payload.embeds[0]!.description!.split('\n'));
      expect(all.filter((l) => / · Entraînement contre l’IA · /.test(l))).toHaveLength(1);
      expect(all.some((l) => / · Partie rapide · /.test(l))).toBe(true);
      expect(all.join('\n')).not.toMatch(/Competitive|Quick Play|Other mode|Practice vs AI/);
      const de = await runInLocale('de', () => b.press('pl.s:1786151874:', ['matches']));
      expect(
        selectOptions(de.payload, 'mt.l:1786151874')
          .map((o) => o.description)
          .join('\n'),
      ).toMatch(/ · Wettkampf · /);
    }));

  it('a match opened in Japanese names its mode in Japanese', async () => {
    const first = await env.b.press('pl.s:1403392756:', ['matches']);
    const second = await env.b.press('pl.p:1403392756::matches:2:n');
    const known = [...selectOptions(first.payload, 'mt.l:'), ...selectOptions(second.payload, 'mt.l:')].find((o) =>
      o.value.startsWith('6713355_1740604074_322_11001_10~'),
    )!;
    const opened = await runInLocale('ja', () => env.b.press('mt.l:1403392756', [known.value]));
    expect(opened.payload.embeds[0]!.title).toBe('クイックマッチ');
  });

  it('matches the profile holds that are newer than the stored history come first, said so', async () => {
    // The served August 2025 profile embeds 20 matches newer than the May 2025 v2 history.
    const { payload } = await env.b.press('pl.s:1786151874:', ['matches']);
    const lines = payload.embeds[0]!.description!.split('\n');
    expect(lines[0]).toBe('The newest 20 matches come from the profile: the API’s stored history has not caught up yet.');
    expect(lines[2]).toBe('**Loss** · Winter Soldier · 11/12/7 · Symbiotic Surface · Competitive · −18.5 · 11m 52s · <t:1754021020:R>');
    expect(payload.components.flatMap((r) => r.components).some((c) => 'label' in c && c.label === 'Page 1 of 6')).toBe(true);
    const third = await env.b.press('pl.p:1786151874::matches:3:n');
    // A row of an earlier season than the profile's current one names its season.
    expect(third.payload.embeds[0]!.description!.split('\n')[0]).toBe(
      '**Win** · Cloak & Dagger · 18/7/22 · Central Park · Competitive · +38.0 · 10m 43s · Season 2 · <t:1748299724:R>',
    );
  });

  it('a match opened from the picker shows the map, mode, duration and date its row knew', async () => {
    const first = await env.b.press('pl.s:1403392756:', ['matches']);
    const options = selectOptions(first.payload, 'mt.l:');
    const second = await env.b.press('pl.p:1403392756::matches:2:n');
    const all = [...options, ...selectOptions(second.payload, 'mt.l:')];
    const known = all.find((o) => o.value.startsWith('6713355_1740604074_322_11001_10~'))!;
    expect(known.value).toBe('6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2');
    const opened = await env.b.press('mt.l:1403392756', [known.value]);
    expect(opened.view.isError).toBeFalsy();
    expect(opened.payload.embeds[0]!.title).toBe('Quick Play');
    expect(opened.payload.embeds[0]!.description!.split('\n')[0]).toBe(
      "**Map** Royal Palace\\: Odin's Archive · **Duration** 6m 44s · **Started** <t:1740604074:f>",
    );
  });

  it('a match the API has no details for and the list no longer holds: what its menu value knew, said so, with Back', async () => {
    const gone = await env.b.press('mt.l:1403392756', ['6799999_1741000000_100_11001_10~1217~1~400~1741000400']);
    expect(gone.view.isError).toBeFalsy();
    expect(gone.mode).toBe('update');
    const e = gone.payload.embeds[0]!;
    expect(e.title).toBe('Quick Play');
    expect(e.description!.split('\n')).toEqual([
      '**Map** Central Park · **Duration** 6m 40s · **Started** <t:1741000000:f>',
      'The full scoreboard of this match is not available: the Marvel Rivals API keeps scoreboards for only some matches. Here is what the list of recent matches knew of it.',
      'Match 6799999\\_1741000000\\_100\\_11001\\_10',
    ]);
    expect(customIds(gone.payload)).toEqual(['pl.p:1403392756::matches:1:b']);
  });
});

describe('/player Update button', () => {
  it('asks the API to refresh the player, then shows its cooldown as a friendly wait', async () => {
    const first = await env.b.press('pl.u:1403392756');
    expect(first.payload.flags).toBe(64);
    expect(first.payload.embeds[0]!.description).toBe('Update requested. The API refreshes this player within a few minutes: run `/player` again then.');
    expect(env.r.requests.byPath.get('/api/v1/player/1403392756/update')).toBe(1);
    const again = await env.b.press('pl.u:1403392756');
    expect(again.view.isError).toBeFalsy();
    expect(again.payload.flags).toBe(64);
    expect(again.payload.embeds[0]!.description).toBe('This player was updated recently. The API allows another update in 30 minutes.');
  });

  it('a 429 that is the key’s rate limit, not the player’s cooldown, is not passed off as a cooldown', async () => {
    env.r.setFaults({ forceStatus: 429, retryAfterSeconds: 0, pathPrefix: '/api/v1/player/1117455441/update' });
    const limited = await env.b.press('pl.u:1117455441');
    expect(limited.view.isError).toBe(true);
    expect(limited.payload.embeds[0]!.description).toMatch(/^The bot is asking the Marvel Rivals API too often right now\. Try again in \d+ s\.$/);
  });
});

describe('/player errors name the thing', () => {
  it('an unknown player, escaped as typed', async () => {
    const missing = await env.b.run('player', { query: 'Nobody123' });
    expect(missing.payload.embeds[0]!.description).toBe('No player called “Nobody123”. Check the spelling, or use the UID.');
    expect(missing.payload.flags).toBe(64);
    const sneaky = await env.b.run('player', { query: '[free](https://x.test) **bold**' });
    expect(sneaky.payload.embeds[0]!.description).toBe('No player called “\\[free\\](https\\://x.test) \\*\\*bold\\*\\*”. Check the spelling, or use the UID.');
  });

  it('an unknown UID is called a UID', async () => {
    const missing = await env.b.run('player', { query: '9999999999' });
    expect(missing.payload.embeds[0]!.description).toBe('No player has the UID 9999999999. Check the number on the player’s profile, or use their name.');
  });

  it('a private profile is private', async () => {
    const profile = structuredClone(env.r.dataset.players.get('1402468705')!);
    env.r.dataset.players.set('999000999', { ...profile, uid: 999000999, name: 'Hidden One', isPrivate: true });
    try {
      const hidden = await env.b.run('player', { query: '999000999' });
      expect(hidden.payload.embeds[0]!.description).toBe('Hidden One’s profile is private. They can make it public in the game’s settings.');
    } finally {
      env.r.dataset.players.delete('999000999');
    }
  });

  it('a profile opened from a menu that the API does not know is named, not blamed on spelling', async () => {
    const { payload, view } = await env.b.press('pl.o:6713355_1740604074_322_11001_10', ['424242']);
    expect(view.isError).toBe(true);
    expect(payload.embeds[0]!.description).toBe('The API has no profile for the player with UID 424242 right now.');
  });
});

describe('/match scoreboard on every real match', () => {
  it('one line per player: main hero, K/D/A, damage, healing, badges; one number format', async () => {
    for (const uid of env.r.dataset.matches.keys()) {
      const { payload, view } = await env.b.run('match', { match: uid });
      expect(view.isError).toBeFalsy();
      withinLimits(payload);
      const [summary, ...teams] = payload.embeds;
      expect(summary!.title).toBe('Quick Play');
      expect(summary!.fields!.map((f) => f.name)).toEqual(['MVP', 'SVP', 'Players']);
      expect(teams).toHaveLength(2);
      const lines = teams.flatMap((t) => t.description!.split('\n'));
      // "13 · 1 replacement · 1 left early": every player has a line, those who did not play it through counted.
      expect(lines).toHaveLength(Number(/^\d+/.exec(summary!.fields![2]!.value)![0]));
      const off = lines.filter((l) => /\*(left early|replacement|no hero picked)\*$/.test(l)).length;
      const counted = [...summary!.fields![2]!.value.matchAll(/ · (\d+) /g)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(counted).toBe(off);
      for (const l of lines)
        expect(l).toMatch(
          /^\*\*[^*]+\*\* · [A-Z][^·]+ · \d+\/\d+\/\d+ · (\d{1,3}(,\d{3})*) dmg( · [1-9]\d{0,2}(,\d{3})* heal)? · (\d{1,3}(,\d{3})*) dmg taken( · .+)?$/,
        );
      expect(lines.filter((l) => / · \*\*MVP\*\*/.test(l))).toHaveLength(1);
      expect(lines.filter((l) => / · \*\*SVP\*\*/.test(l))).toHaveLength(1);
      expect(teams.some((t) => /Victory/.test(t.title!)) && teams.some((t) => /Defeat/.test(t.title!))).toBe(true);
      expect(selectOptions(payload, 'pl.o:')).toHaveLength(lines.length);
    }
  });

  it('reads the hero list while the match is on its way, not after it', async () => {
    const { view, payload } = await readsWhileHeldBack(env.r, '/api/v1/match/', ['/api/v1/heroes'], (b) =>
      b.run('match', { match: '6713371_1740603484_820_11001_10' }),
    );
    expect(view.isError).toBeFalsy();
    // Heroes named from the list: no "Hero 1011"-style fallbacks.
    expect(JSON.stringify(payload.embeds)).not.toMatch(/Hero \d{4}/);
    expect(payload.embeds[2]!.description).toContain('Thor');
  });

  it('leavers are marked and last, replacements are marked', async () => {
    const { payload } = await env.b.run('match', { match: '6713371_1740603484_820_11001_10' });
    const teamB = payload.embeds[2]!.description!.split('\n');
    expect(teamB.slice(-4)).toEqual([
      '**ShellyBunny** · Thor (3m 50s), The Thing (1m 26s), Human Torch (1m 10s) · 6/5/3 · 3,344 dmg · 8,649 dmg taken · *replacement*',
      '**SpruceGunman** · Hulk (6m 5s) · 6/5/3 · 2,827 dmg · 9,956 dmg taken · *replacement*',
      '**PokePig** · The Thing (1m 24s) · 0/1/0 · 1,193 dmg · 4,550 dmg taken · *left early*',
      '**kingkwlk** · Human Torch (1m 6s) · 0/0/0 · 0 dmg · 0 dmg taken · *left early*',
    ]);
    expect(teamB[0]).toBe('**Card1gan** · Cloak & Dagger (7m 48s) · 11/9/9 · 5,627 dmg · 17,954 heal · 6,753 dmg taken · **SVP**, Gifted Healer');
  });

  it('counts who did not play the match through in the plural of each language', async () => {
    const expected: Record<Locale, [string, string]> = {
      en: ['14 · 2 replacements · 2 left early', '13 · 1 replacement · 1 left early'],
      'es-ES': ['14 · 2 sustitutos · 2 abandonaron', '13 · 1 sustituto · 1 abandonó'],
      'pt-BR': ['14 · 2 substitutos · 2 saíram antes do fim', '13 · 1 substituto · 1 saiu antes do fim'],
      fr: ['14 · 2 remplaçants · 2 ont quitté la partie', '13 · 1 remplaçant · 1 a quitté la partie'],
      de: ['14 · 2 Ersatzspieler · 2 vorzeitig verlassen', '13 · 1 Ersatzspieler · 1 vorzeitig verlassen'],
      ja: ['14 · 途中参加 2人 · 途中離脱 2人', '13 · 途中参加 1人 · 途中離脱 1人'],
    };
    for (const [locale, [two, one]] of Object.entries(expected) as [Locale, [string, string]][]) {
      const players = async (uid: string) => (await runInLocale(locale, () => env.b.run('match', { match: uid }))).payload.embeds[0]!.fields![2]!.value;
      expect(await players('6713371_1740603484_820_11001_10'), locale).toBe(two);
      expect(await players('6713355_1740604074_322_11001_10'), locale).toBe(one);
    }
  });

  it('the summary gives duration and date from the match itself when opened by id', async () => {
    const { payload } = await env.b.run('match', { match: '6713355_1740604074_322_11001_10' });
    // The map, when named, comes from a history row the bot holds (test/commands/match-held.test.ts).
    expect(payload.embeds[0]!.description).toMatch(
      /(^|· )\*\*Duration\*\* 6m 44s · \*\*Started\*\* <t:1740604074:f>\nMatch `6713355_1740604074_322_11001_10` · replay 10739232944$/,
    );
  });

  it('by id, names the map the match itself tells: the one its uid embeds, as when opened from a list', async () => {
    // A real scoreboard served under a real newer uid of Double C's (map 1290, Symbiotic Surface): the four captured
    // scoreboards have older uids, which embed no map.
    const uid = '5518294_1749102302_1290153_11001_11';
    env.r.dataset.matches.set(uid, {
      match_details: { ...(env.r.dataset.matches.get('6713355_1740604074_322_11001_10')!.match_details as object), match_uid: uid },
    });
    try {
      const typed = (await env.b.run('match', { match: uid })).payload.embeds[0]!;
      expect(typed.description!.split('\n')[0]).toBe('**Map** Symbiotic Surface · **Duration** 6m 44s · **Started** <t:1749102302:f>');
      expect(typed.thumbnail?.url).toMatch(/1290/);
      const fromList = encodeMatchOrigin({ matchUid: uid, mapId: '1290', modeId: 2, duration: 704, time: 1749103193 });
      const opened = (await env.b.press('mt.l:1786151874', [fromList])).payload.embeds[0]!;
      expect(opened.description!.split('\n')[0]).toBe(typed.description!.split('\n')[0]);
      // Without a map in its uid or detail, or a row the bot holds, none is named: an older uid's third part is a counter, not a map.
      const listedNowhere = '6799998_1740604074_999_11001_10';
      env.r.dataset.matches.set(listedNowhere, {
        match_details: { ...(env.r.dataset.matches.get('6713355_1740604074_322_11001_10')!.match_details as object), match_uid: listedNowhere },
      });
      const old = (await env.b.run('match', { match: listedNowhere })).payload.embeds[0]!;
      expect(old.description).toMatch(/^\*\*Duration\*\*/);
    } finally {
      env.r.dataset.matches.delete(uid);
      env.r.dataset.matches.delete('6799998_1740604074_999_11001_10');
    }
  });

  it('a select opens any player of the match as a profile', async () => {
    const { payload } = await env.b.run('match', { match: '4890922_1741035286_222_11001_10' });
    const card = selectOptions(payload, 'pl.o:').find((o) => o.label === 'Card1gan')!;
    expect(card).toMatchObject({ value: '1403392756', description: 'Magik · 29/10/0' });
    const opened = await env.b.press(
      customIds(payload).find((id) => id.startsWith('pl.o:'))!,
      [card.value],
    );
    expect(opened.view.isError).toBeFalsy();
    expect(opened.payload.embeds[0]!.title).toBe('Grandmaster III');
  });
});

describe('/match fuller scoreboard', () => {
  const teamLines = (payload: MessagePayload) => payload.embeds.slice(1).flatMap((e) => (e.description ?? '').split('\n'));

  it('every hero a player used with its time, longest first, and damage taken on every line', async () => {
    const { payload } = await env.b.run('match', { match: '6713371_1740603484_820_11001_10' });
    const lines = teamLines(payload);
    expect(lines.find((l) => l.startsWith('**xCezovz**'))).toBe(
      '**xCezovz** · Magik (3m 22s), Jeff the Land Shark (1m 49s), Moon Knight (1m 34s), Thor (0m 54s), Mister Fantastic (0m 11s) · 4/10/0 · 3,978 dmg · 2,079 heal · 7,691 dmg taken',
    );
    expect(lines.find((l) => l.startsWith('**voidwalkerz**'))).toBe(
      '**voidwalkerz** · Scarlet Witch (5m 2s), Invisible Woman (2m 45s), Adam Warlock (0m 1s) · 7/10/1 · 4,802 dmg · 1,819 heal · 7,269 dmg taken',
    );
    for (const l of lines) expect(l).toMatch(/ · \d{1,3}(,\d{3})* dmg taken( · |$)/);
  });

  it('no “0 heal” on any real match: healing shows exactly for the players who healed', async () => {
    for (const [uid, m] of Object.entries(matches)) {
      const lines = teamLines((await env.b.run('match', { match: uid })).payload);
      expect(lines.join('\n')).not.toMatch(/(^|· )0 heal/m);
      const healers = m.players.filter((p) => Math.round(p.total_hero_heal) > 0).map((p) => escapeText(p.nick_name!));
      expect(healers.length, uid).toBeGreaterThan(0);
      expect(
        lines
          .filter((l) => / heal( · |$)/.test(l))
          .map((l) => /^\*\*(.+?)\*\*/.exec(l)![1])
          .sort(),
        uid,
      ).toEqual(healers.sort());
    }
  });

  it('badges are spelt as the game spells them, never as the API misspells them', async () => {
    const { payload } = await env.b.run('match', { match: '4890922_1741035286_222_11001_10' });
    expect(teamLines(payload).find((l) => l.startsWith('**BURNBOT**'))).toMatch(/ · Impenetrable Defence$/);
    const all = [];
    for (const uid of Object.keys(matches)) all.push(JSON.stringify((await env.b.run('match', { match: uid })).payload));
    expect(all.join()).not.toContain('Impentrable');
    expect(all.join().match(/Impenetrable Defence/g)).toHaveLength(4);
  });

  it('the round score of a history row rides in the picker’s value and titles each team', async () => {
    const row = profiles['autumnnippert-card1gan-1403392756-2025-03-06.json']!.recent_matches.find((r) => r.match_uid === '6713355_1740604074_322_11001_10')!;
    expect(row.score).toEqual([0, 2]);
    const value = encodeMatchOrigin({
      matchUid: row.match_uid,
      mapId: row.map_id,
      modeId: row.game_mode_id,
      duration: row.duration,
      time: row.time,
      score: row.score,
    });
    expect(value).toMatch(/^6713355_1740604074_322_11001_10~1170~1~\d+~1740604\d+~0-2$/);
    expect(decodeMatchOrigin(value)).toMatchObject({ matchUid: row.match_uid, mapId: '1170', modeId: 1, score: [0, 2] });
    const opened = await env.b.press('mt.l:1403392756', [value]);
    expect(opened.payload.embeds.slice(1).map((e) => e.title)).toEqual(['Team A · Defeat · rounds 0–2', 'Team B · Victory · rounds 2–0']);
    const fr = await runInLocale('fr', () => env.b.press('mt.l:1403392756', [value]));
    expect(fr.payload.embeds.slice(1).map((e) => e.title)).toEqual(['Équipe A · Défaite · manches 0–2', 'Équipe B · Victoire · manches 2–0']);
    // A value from before scores were carried takes the rounds from the history row the bot holds of the player who listed it.
    const plain = await env.b.press('mt.l:1403392756', ['6713355_1740604074_322_11001_10~1170~1~403~1740604635']);
    expect(plain.payload.embeds.slice(1).map((e) => e.title)).toEqual(['Team A · Defeat · rounds 0–2', 'Team B · Victory · rounds 2–0']);
    expect(decodeMatchOrigin('6713355_1740604074_322_11001_10~1170~1~403~1740604635').score).toBeNull();
    // A crafted value's map id that is not the API's digits is no map at all, never shown as an id.
    expect(decodeMatchOrigin('6713355_1740604074_322_11001_10~[a](https://x.y)~1').mapId).toBeNull();
    const crafted = await env.b.press('mt.l:1403392756', ['6713355_1740604074_322_11001_1q~qaqqhttpsq~1']);
    expect(JSON.stringify(crafted.payload.embeds)).not.toContain('qaqqhttpsq');
  });

  it('a 14-player match of many heroes, long names and many badges fits every limit as the handler returns it, every player keeping a line', async () => {
    const heroIds = env.r.dataset.heroes.map((h) => h.id).slice(0, 12);
    const body = structuredClone(env.r.dataset.matches.get('6713371_1740603484_820_11001_10')!) as {
      match_details: { match_uid: string; match_players: Record<string, unknown>[] };
    };
    const uid = '9999001_1740603484_820_11001_10';
    body.match_details.match_uid = uid;
    body.match_details.match_players = body.match_details.match_players.map((p, i) => ({
      ...p,
      nick_name: `${i}_*~\`|<@${'x'.repeat(20)}`,
      total_hero_heal: 12_345.6,
      player_heroes: heroIds.map((id, j) => ({ hero_id: id, play_time: 40 - j, kills: 1, deaths: 1, assists: 1, session_hit_rate: 0.5, hero_icon: null })),
      badges: Array.from({ length: 8 }, (_, j) => ({ name: `Extraordinarily Long Badge Name ${j}`, id: j, count: 3 })),
    }));
    env.r.dataset.matches.set(uid, body);
    try {
      const { view, payload } = await env.b.run('match', { match: uid });
      expect(view.isError).toBeFalsy();
      expectWithin(view, 'many heroes, as returned');
      expectWithin(payload, 'many heroes, as sent');
      const lines = teamLines(payload);
      expect(lines).toHaveLength(14);
      // Less detail, not fewer players: each line still names its player, longest hero with its time (and how many more), and K/D/A.
      for (const [i, l] of lines.entries())
        expect(l, `line ${i}`).toMatch(/^\*\*\d+\\_\\\*\\~\\`\\\|\\<\\@x+\*\* · [A-Z][^·(]+ \(0m 40s\) \+11 more · \d+\/\d+\/\d+ · /);
      expect(lines.join('\n')).not.toContain('…');
    } finally {
      env.r.dataset.matches.delete(uid);
    }
  });
});

describe('a way back from a view opened from a list', () => {
  const selectId = (payload: MessagePayload, prefix: string) =>
    payload.components
      .flatMap((r) => r.components)
      .find((c): c is Extract<typeof c, { custom_id: string; options: unknown }> => 'custom_id' in c && 'options' in c && c.custom_id.startsWith(prefix))!
      .custom_id;
  const backId = (payload: MessagePayload) =>
    payload.components.flatMap((r) => r.components).find((c) => 'label' in c && /Back$/.test(String(c.label)) && 'custom_id' in c) as
      { custom_id: string } | undefined;

  it('a match opened from page 2 of recent matches returns to page 2, with the same rows', async () => {
    const second = await env.b.press('pl.p:1403392756::matches:2:n');
    const picker = selectId(second.payload, 'mt.l:');
    expect(picker).toBe('mt.l:1403392756::2:');
    // A match the replica holds the details of (the picker's value carries its row).
    const option = selectOptions(second.payload, 'mt.l:').find((o) => o.value.startsWith('6713355_1740604074_322_11001_10~'))!;
    const opened = await env.b.press(picker, [option.value]);
    expect(opened.view.isError).toBeFalsy();
    expect(backId(opened.payload)?.custom_id).toBe('pl.p:1403392756::matches:2:b');
    const back = await env.b.press(backId(opened.payload)!.custom_id);
    expect(back.payload.embeds[0]!.description).toBe(second.payload.embeds[0]!.description);
    expect(JSON.stringify(back.payload.components)).toContain('"label":"Page 2 of');
  });

  it('the filter and the season travel with the way back', async () => {
    const filtered = await env.b.press('pl.f:161235255::r');
    expect(filtered.payload.embeds[0]!.description).toMatch(/^Bot, practice and custom matches are hidden\./);
    expect(filtered.payload.embeds[0]!.description).not.toMatch(/Practice vs AI/);
    const picker = selectId(filtered.payload, 'mt.l:');
    expect(picker).toBe('mt.l:161235255::1:r');
    // The replica holds no detail of this player's matches: open one it has, from the same picker.
    const opened = await env.b.press(picker, ['6713355_1740604074_322_11001_10']);
    expect(opened.view.isError).toBeFalsy();
    expect(backId(opened.payload)?.custom_id).toBe('pl.p:161235255::matches:r:1:b');
    const back = await env.b.press('pl.p:161235255::matches:r:1:b');
    expect(back.payload.embeds[0]!.description).toBe(filtered.payload.embeds[0]!.description);
    // The unfiltered list shows the 4 bot matches; the button says how to hide them.
    const all = await env.b.press('pl.s:161235255:', ['matches']);
    expect(all.payload.embeds[0]!.description).toMatch(/Practice vs AI/);
    expect(customIds(all.payload)).toContain('pl.f:161235255::r');
  });

  it('a player opened from a match opened from a list returns to the match as it was, round score included', async () => {
    const picked = await env.b.press('mt.l:1403392756::1:', ['6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2']);
    expect(picked.payload.embeds[1]!.title).toBe('Team A · Defeat · rounds 0–2');
    const select = customIds(picked.payload).find((id) => id.startsWith('pl.o:'))!;
    // The list's place rides along, so the match reopened keeps its own Back to the list.
    expect(select).toBe('pl.o:6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2:1403392756::1:');
    const opened = await env.b.press(select, ['1403392756']);
    expect(backId(opened.payload)!.custom_id).toBe('mt.o:6713355_1740604074_322_11001_10~1170~1~403~1740604635~0-2:1403392756::1:');
    const back = await env.b.press(backId(opened.payload)!.custom_id);
    expect(back.payload.embeds).toEqual(picked.payload.embeds);
    expect(backId(back.payload)?.custom_id).toBe('pl.p:1403392756::matches:1:b');
  });

  it('a player opened from a scoreboard returns to the match; an older picker without a page returns to page 1', async () => {
    const match = await env.b.run('match', { match: '6713355_1740604074_322_11001_10' });
    expect(backId(match.payload)).toBeUndefined();
    // Card1gan, whose profile the replica serves.
    expect(selectOptions(match.payload, 'pl.o:').map((o) => o.value)).toContain('1403392756');
    const opened = await env.b.press('pl.o:6713355_1740604074_322_11001_10', ['1403392756']);
    expect(opened.view.isError).toBeFalsy();
    expect(backId(opened.payload)?.custom_id).toBe('mt.o:6713355_1740604074_322_11001_10');
    const back = await env.b.press('mt.o:6713355_1740604074_322_11001_10');
    expect(back.payload.embeds.slice(1)).toEqual(match.payload.embeds.slice(1));
    const old = await env.b.press('mt.l:1403392756', ['6713355_1740604074_322_11001_10~1170~1~403~1740604635']);
    expect(backId(old.payload)?.custom_id).toBe('pl.p:1403392756::matches:1:b');
  });
});

describe('sections that agree with each other', () => {
  it('a season’s last change in the rank list names the tier the ranked-seasons table names', async () => {
    // Sir Final's Season 1 ends at 4,473: Grandmaster III by the API's level, Diamond I by this season's score thresholds.
    const payload = await view('autumnnippert-sir-final-1117455441.json', 'rank-history');
    const all: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const p =
        page === 1
          ? payload
          : toMessagePayload(
              await playerView(
                { data: profiles['autumnnippert-sir-final-1117455441.json']!, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const },
                'rank-history',
                page,
                null,
                env.b.ctx,
              ),
            );
      all.push(...p.embeds[0]!.description!.split('\n'));
    }
    expect(fieldsOf(payload.embeds[0]!)['Ranked seasons']).toContain('**Season 1** · Grandmaster III · 4,473');
    expect(all).toContain('<t:1739394770:R> · 4,473 · Grandmaster III · Season 1');
  });

  const view = async (file: string, section: (typeof PLAYER_SECTIONS)[number]) =>
    toMessagePayload(
      await playerView({ data: profiles[file]!, fetchedAt: Date.now(), ageMs: 0, stale: false, source: 'upstream' as const }, section, 1, null, env.b.ctx),
    );

  it('a profile with ranked matches but no hero list never says there were no ranked matches', async () => {
    const p = profiles['doublec8-double-c-1786151874-2025-06-05.json']!;
    expect(p.overall.ranked.matches).toBe(14);
    expect(p.heroes_ranked).toHaveLength(0);
    const payload = await view('doublec8-double-c-1786151874-2025-06-05.json', 'ranked');
    expect(payload.embeds[0]!.description).toBe('The profile lists no heroes for its 14 ranked matches in Season 2.5 (current).');
  });

  it('heroes with play time but no completed match are listed as such, never as 0 matches at 0.0 %', async () => {
    const payload = await view('autumnnippert-chob-bob-341932470.json', 'unranked');
    const lines = payload.embeds[0]!.description!.split('\n');
    expect(lines).toContain('**9. Jeff the Land Shark** · 3m 28s · no completed matches · —');
    expect(lines.every((l) => !/ 0 matches/.test(l))).toBe(true);
  });
});

describe('/player maps, page by page', () => {
  it('each page’s picture is of a map that page lists, never of one on another page', async () => {
    const first = (await env.b.press('pl.s:1403392756:', ['maps'])).payload.embeds[0]!;
    const second = (await env.b.press('pl.p:1403392756::maps:2:n')).payload.embeds[0]!;
    expect(first.thumbnail?.url).toMatch(/map_1170\.png$/);
    // Page 2 lists Spider-Islands (map 1245) alone: its picture is 1245's, not Royal Palace's from page 1.
    expect(second.description).toMatch(/^\*\*Spider-Islands \(Competitive\)\*\*/);
    expect(second.thumbnail?.url).toMatch(/map_1245\.png$/);
  });
});

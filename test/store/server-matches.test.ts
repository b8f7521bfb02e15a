/**
 * A server's counted matches (src/store/server-matches.ts) on both engines: only ranked matches with a result of the members on
 * its ladder who did not opt out, by the account that lists them; each bracket from the score before the match. The counts
 * are recomputed by hand from the stored rows, and the server meta's numbers from them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchDetail } from '../../src/api/schemas.js';
import type { RecordedMatch } from '../../src/game/tracking.js';
import { BRACKETS, serverMeta, wilsonInterval, type HeroCount } from '../../src/game/server-meta.js';
import { ServerMatchesRepository } from '../../src/store/server-matches.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, insertTrackedMatch, openTestState, type TestStateLocation } from '../helpers/state.js';

const GUILD = 'g1';
const T0 = 1_760_000_000_000;
const NOW_S = T0 / 1000;
const DAY_S = 86_400;

type Row = Pick<RecordedMatch, 'heroId' | 'won' | 'newScore' | 'scoreChange' | 'ranked' | 'season'> & { daysAgo: number; drawn?: boolean };

const row = (r: Partial<Row>): Row => ({ heroId: '1014', won: true, newScore: 3950, scoreChange: 20, ranked: true, season: 3, daysAgo: 1, ...r });

/** Each account's matches: A and B are listed on the ladder, C opted out, D is unproved, E is tracked but never joined. */
const PLAYED: Record<string, Row[]> = {
  A: [
    row({}), // Platinum: 3,930 before
    row({ won: false, newScore: 3890, scoreChange: -25 }), // Platinum: 3,915 before
    row({ won: true, newScore: 3610, scoreChange: 15 }), // Silver: 3,595 before, Gold after (Gold III begins at 3,600, Platinum III at 3,900)
    row({ heroId: '1011', newScore: 5200, scoreChange: 30 }), // Eternity
    row({ heroId: '1011', won: null, drawn: true, newScore: 4300, scoreChange: 0 }), // a draw, Diamond (4,200 to 4,499)
    row({ heroId: '1011', newScore: null, scoreChange: null }), // no score: no bracket
    row({ heroId: '1011', won: null, newScore: 4000, scoreChange: null }), // no result: left out
    row({ ranked: false, newScore: null, scoreChange: null }), // Quick Play: left out
    row({ season: 2, daysAgo: 60 }), // last season, long ago
  ],
  B: [row({ heroId: '1015', won: false, newScore: 2990, scoreChange: -10, daysAgo: 40 }), row({ heroId: '1015', daysAgo: 2 })],
  C: [row({ heroId: '1011' })],
  D: [row({ heroId: '1011' })],
  E: [row({ heroId: '1011' })],
};

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  beforeAll(async () => {
    state = await openTestState(engine);
    await state.ladder.setEnabled(GUILD, true, T0);
    for (const uid of Object.keys(PLAYED)) {
      const user = `member-${uid}`;
      await state.links.link(user, { uid, name: `P${uid}` }, true, T0);
      if (uid !== 'D') await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('uid', '=', uid).execute();
      if (uid !== 'E') await state.ladder.join(GUILD, user, T0, uid === 'C' ? { optedOut: true } : {});
      await state.tracking.follow(uid, T0);
    }
    // Another server's ladder: E's matches count there, and nothing of them here.
    await state.ladder.setEnabled('g2', true, T0);
    await state.ladder.join('g2', 'member-E', T0);
    for (const claim of await state.tracking.claim(T0, 10, 60_000)) {
      const matches = PLAYED[claim.uid]!.map((r, i): RecordedMatch => ({
        matchUid: `${claim.uid}_${i}`,
        time: NOW_S - r.daysAgo * DAY_S,
        season: r.season,
        modeId: r.ranked ? 2 : 1,
        ranked: r.ranked,
        heroId: r.heroId,
        won: r.won,
        drawn: r.drawn ?? false,
        newScore: r.newScore,
        scoreChange: r.scoreChange,
        newLevel: null,
        kills: 10 + i,
        deaths: 5,
        assists: i,
      }));
      await state.tracking.recordRead(claim, { snapshot: null, matches, lastMatchAt: null, changed: false }, { intervalMs: 60_000 }, T0);
    }
  });
  afterAll(async () => state?.close());

  it('lists the members it counts: those on the ladder, proved, not opted out', async () => {
    const listed = await state.database.db.selectFrom('ladder_members').select(['user_id', 'uid', 'opted_out']).where('guild_id', '=', GUILD).execute();
    expect(listed.filter((m) => m.uid !== null && m.opted_out === 0).map((m) => m.uid)).toEqual(expect.arrayContaining(['A', 'B']));
    expect(listed.find((m) => m.user_id === 'member-D')?.uid ?? null).toBeNull();
  });

  it('counts the stored rows as a hand count of them does', async () => {
    const since = NOW_S - 30 * DAY_S;
    const counts = await state.serverMatches.heroCounts(GUILD, since);
    // By hand, from the stored rows of A and B.
    const stored = await state.database.db.selectFrom('tracked_matches').selectAll().where('uid', 'in', ['A', 'B']).execute();
    const floors = [3300, 3600, 3900, 4200, 4500, 4800, 5100];
    const expected = new Map<string, HeroCount>();
    for (const r of stored) {
      if (r.ranked !== 1 || r.won === null) continue;
      const before = r.new_score === null ? null : Number(r.new_score) - Number(r.score_change ?? 0);
      const bracket = before === null ? null : floors.filter((f) => before >= f).length;
      const c: HeroCount = {
        season: r.season,
        recent: Number(r.played_at) >= since,
        heroId: r.hero_id,
        bracket,
        won: r.won as 0 | 1 | 2,
        matches: 0,
        kills: 0,
        deaths: 0,
        assists: 0,
      };
      const key = JSON.stringify([c.season, c.recent, c.heroId, c.bracket, c.won]);
      const e = expected.get(key) ?? c;
      e.matches++;
      e.kills += r.kills;
      e.deaths += r.deaths;
      e.assists += r.assists;
      expected.set(key, e);
    }
    const sorted = (cs: HeroCount[]) => [...cs].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(sorted(counts)).toEqual(sorted([...expected.values()]));
    // What the hand count found: A's 7 counted rows and B's 2; no row of C, D or E.
    expect(counts.reduce((n, c) => n + c.matches, 0)).toBe(9);
    expect(counts.filter((c) => c.heroId === '1014' && c.season === 3 && c.bracket === BRACKETS.indexOf('Platinum'))).toHaveLength(2);
    expect(counts.find((c) => c.heroId === '1014' && c.bracket === BRACKETS.indexOf('Silver'))).toMatchObject({ won: 1, matches: 1 });
    expect(counts.find((c) => c.heroId === '1011' && c.bracket === BRACKETS.indexOf('Eternity'))).toMatchObject({ won: 1, matches: 1 });
    expect(counts.find((c) => c.heroId === '1011' && c.won === 2)).toMatchObject({ bracket: BRACKETS.indexOf('Diamond'), matches: 1 });
    expect(counts.find((c) => c.heroId === '1011' && c.bracket === null)).toMatchObject({ won: 1, matches: 1 });
    expect(counts.find((c) => c.heroId === '1015' && !c.recent)).toMatchObject({ bracket: BRACKETS.indexOf('Bronze'), won: 0 });
    expect(await state.serverMatches.heroCounts('nobody', since)).toEqual([]);
  });

  it('gives the server meta its numbers: this season and the last 30 days', async () => {
    const counts = await state.serverMatches.heroCounts(GUILD, NOW_S - 30 * DAY_S);
    const heroes = [
      { id: '1011', name: 'Hulk', role: 'Vanguard' },
      { id: '1014', name: 'The Punisher', role: 'Duelist' },
      { id: '1015', name: 'Storm', role: 'Duelist' },
    ];
    const season = serverMeta(counts, 'season', null, heroes);
    expect(season.season).toBe(3);
    // The Punisher: A's three rows of season 3 (2 wins, 1 loss); Hulk: A's win, draw, and unscored win; Storm: B's two.
    const punisher = season.rows.find((r) => r.heroId === '1014')!;
    expect(punisher).toMatchObject({ matches: 3, wins: 2, interval: wilsonInterval(2, 3) });
    expect(punisher.kda).toBeCloseTo((10 + 11 + 12 + 0 + 1 + 2) / 15, 12);
    expect(season.rows.find((r) => r.heroId === '1011')).toMatchObject({ matches: 3, wins: 2 });
    expect(season.rows.find((r) => r.heroId === '1015')).toMatchObject({ matches: 2, wins: 1 });
    expect(season.matches).toBe(8);
    // The last 30 days: B's loss of 40 days ago and A's last-season match go.
    const recent = serverMeta(counts, '30d', null, heroes);
    expect(recent.matches).toBe(7);
    expect(recent.rows.find((r) => r.heroId === '1015')).toMatchObject({ matches: 1, wins: 1 });
  });

  it('finds the matches two counted members both played: one team by the stored detail, else by their results', async () => {
    const detail = (matchUid: string, camps: Record<string, number>): MatchDetail => ({
      match_uid: matchUid,
      map_id: null,
      map_name: null,
      game_mode_id: 2,
      game_mode_name: null,
      replay_id: null,
      mvp_uid: null,
      svp_uid: null,
      mvp_hero_id: null,
      svp_hero_id: null,
      players: Object.entries(camps).map(([uid, camp]) => ({
        player_uid: uid,
        nick_name: uid,
        camp,
        cur_hero_id: null,
        cur_hero_icon: null,
        kills: 0,
        deaths: 0,
        assists: 0,
        total_hero_damage: 0,
        total_hero_heal: 0,
        total_damage_taken: 0,
        badges: [],
        result: 'draw',
        is_win: null,
        player_icon: null,
        player_icon_id: null,
        heroes: [],
      })),
    });
    // A stored draw with F and G on one team; the other draw has no detail.
    await state.matches.put(detail('m4', { F: 0, G: 0 }), T0);
    const played: Record<string, [string, boolean | null, boolean?][]> = {
      F: [
        ['m1', true],
        ['m2', false],
        ['m3', null, true],
        ['m4', null, true],
        ['m5', true],
      ],
      G: [
        ['m1', true],
        ['m2', true],
        ['m3', null, true],
        ['m4', null, true],
      ],
      H: [['m5', true]],
    };
    for (const uid of Object.keys(played)) {
      await state.links.link(`member-${uid}`, { uid, name: uid }, true, T0);
      await state.database.db.updateTable('account_links').set({ verified_at: T0 }).where('uid', '=', uid).execute();
      await state.ladder.join(GUILD, `member-${uid}`, T0, uid === 'H' ? { optedOut: true } : {});
      await state.tracking.follow(uid, T0);
    }
    for (const claim of await state.tracking.claim(T0 + 1, 10, 60_000)) {
      const rows = played[claim.uid] ?? [];
      const matches = rows.map(([matchUid, won, drawn]): RecordedMatch => ({
        matchUid,
        time: NOW_S,
        season: 3,
        modeId: 2,
        ranked: true,
        heroId: '1014',
        won,
        drawn: drawn ?? false,
        newScore: null,
        scoreChange: null,
        newLevel: null,
        kills: 0,
        deaths: 0,
        assists: 0,
      }));
      await state.tracking.recordRead(claim, { snapshot: null, matches, lastMatchAt: null, changed: false }, { intervalMs: 60_000 }, T0 + 1);
    }
    const pairs = (await state.serverMatches.pairCounts(GUILD)).filter((p) => p.a === 'F' || p.b === 'F');
    const sorted = [...pairs].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect(sorted).toEqual(
      [
        { a: 'F', b: 'G', same: true, won: 1, matches: 1 },
        { a: 'F', b: 'G', same: false, won: 0, matches: 1 },
        { a: 'F', b: 'G', same: null, won: 2, matches: 1 },
        { a: 'F', b: 'G', same: true, won: 2, matches: 1 },
      ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
    // From a later time on, none of them.
    expect(await state.serverMatches.pairCounts(GUILD, NOW_S + 1)).toEqual([]);
    const totals = (await state.serverMatches.resultCounts(GUILD)).filter((t) => t.uid === 'F' || t.uid === 'H');
    expect(totals.sort((x, y) => x.won - y.won)).toEqual([
      { uid: 'F', won: 0, matches: 1 },
      { uid: 'F', won: 1, matches: 2 },
      { uid: 'F', won: 2, matches: 2 },
    ]);
    const members = await state.serverMatches.members(GUILD);
    expect(members.map((m) => m.uid)).toEqual(expect.arrayContaining(['A', 'B', 'F', 'G']));
    expect(members.map((m) => m.uid)).not.toContain('H');
    expect(members.find((m) => m.uid === 'F')).toEqual({ userId: 'member-F', uid: 'F', name: 'F' });
  });

  it('counts the heroes members met from stored details, once a member, match and hero, and every stored player for the bot’s own meta', async () => {
    // F won m1 beside G; X and Y were the other team, X on two heroes.
    const base = (await state.matches.get('m4'))!.detail;
    const player = (uid: string, camp: number, heroes: string[], result: 'win' | 'loss') => ({
      ...base.players[0]!,
      player_uid: uid,
      nick_name: uid,
      camp,
      cur_hero_id: heroes.at(-1) ?? null,
      result,
      is_win: result === 'win',
      kills: 4,
      deaths: 2,
      assists: 1,
      heroes: heroes.map((hero_id) => ({ hero_id, play_time: 100, kills: 1, deaths: 1, assists: 1, session_hit_rate: null, hero_icon: null })),
    });
    await state.matches.put(
      {
        ...base,
        match_uid: 'm1',
        players: [player('F', 0, ['1014'], 'win'), player('G', 0, ['1015'], 'win'), player('X', 1, ['1011', '1014'], 'loss'), player('Y', 1, ['1011'], 'loss')],
      },
      T0,
    );
    const met = (await state.serverMatches.metCounts(GUILD, 0)).filter((c) => c.season === 3);
    expect(met.map((c) => [c.heroId, c.won, c.matches]).sort()).toEqual([
      ['1011', 1, 2],
      ['1014', 1, 2],
    ]);
    // Every stored player with a result: m4's two draws and m1's four.
    const stored = await state.serverMatches.storedCounts();
    const total = stored.reduce((n, c) => n + c.matches, 0);
    const byHand = (await state.database.db.selectFrom('match_players').select('result').execute()).filter((r) => r.result !== null).length;
    expect(total).toBe(byHand);
    // By the hero each ended on: X on 1014, Y on 1011.
    expect(stored.find((c) => c.heroId === '1011' && c.won === 0)).toMatchObject({ matches: 1, kills: 4, deaths: 2, assists: 1 });
    expect(stored.find((c) => c.heroId === '1014' && c.won === 0)).toMatchObject({ matches: 1 });
    expect(stored.find((c) => c.heroId === '1014' && c.won === 1)).toMatchObject({ matches: 1 });
  });

  it('keeps a server’s counts for a minute, and reads them again at once when who is on the ladder changes', async () => {
    const since = NOW_S - 7 * DAY_S;
    const before = await state.serverMatches.heroCounts(GUILD, since);
    const total = (cs: HeroCount[]) => cs.reduce((n, c) => n + c.matches, 0);
    // A match recorded meanwhile: the kept counts do not have it yet (another repository, with none kept, does).
    await insertTrackedMatch(state.database.db, {
      uid: 'A',
      match_uid: 'kept_1',
      played_at: NOW_S,
      season: 3,
      hero_id: '1014',
      new_score: 3950,
      score_change: 20,
      recorded_at: T0,
    });
    expect(await state.serverMatches.heroCounts(GUILD, since)).toBe(await state.serverMatches.heroCounts(GUILD, since));
    expect(total(await state.serverMatches.heroCounts(GUILD, since))).toBe(total(before));
    expect(total(await new ServerMatchesRepository(state.database.db).heroCounts(GUILD, since))).toBe(total(before) + 1);
    // A member leaves the ladder: read again, without their matches.
    await state.ladder.join(GUILD, 'member-A', T0, { optedOut: true });
    const after = await state.serverMatches.heroCounts(GUILD, since);
    expect(total(after)).toBeLessThan(total(before));
    await state.ladder.join(GUILD, 'member-A', T0, { optedOut: false });
    expect(total(await state.serverMatches.heroCounts(GUILD, since))).toBe(total(before) + 1);
  });
});

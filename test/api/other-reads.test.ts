/**
 * The reads the spec names without shapes (docs/data.md "The API's other reads"): the season ladder, the season listing and
 * the player search, parsed leniently in each form public clients accept, through the client against the replica, and
 * refused as a shape the bot does not know when no form fits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas } from '../../src/api/schemas.js';
import { ApiError } from '../../src/core/api-errors.js';
import { startReplica, type Replica } from '../../src/replica/server.js';
import { RivalsApi } from '../../src/api/client.js';
import { cannedServer } from '../helpers/replica.js';

const schemas = createSchemas(createImageResolver('https://img.test/rivals'));

const ENTRY = {
  uid: 1403392756,
  name: 'Card1gan',
  score: 4562,
  icon: { player_icon_id: '30000042', player_icon: '/players/heads/player_head_30000042.png' },
  rank: {
    rank: { rank: 'Grandmaster III', image: '/ranked/grandmaster.png', color: '#EB46FF' },
    win_rate: '58.3%',
    rank_score: '4562.16',
    max_rank_score: 4601,
    level: 16,
    max_level: 17,
    win_count: 70,
    battle_count: 120,
    season_number: 3,
  },
};

describe('the season ladder', () => {
  it('reads an entry: tier object, score, peak, record, icon as a URL; the rate from the counts', () => {
    const { players } = schemas.topPlayers.parse({ page: 1, limit: 100, total_players: 1000, total_pages: 10, players: [ENTRY] });
    expect(players).toEqual([
      {
        uid: '1403392756',
        name: 'Card1gan',
        icon: 'https://img.test/rivals/players/heads/player_head_30000042.png',
        tier: 'Grandmaster III',
        tier_image: 'https://img.test/rivals/ranked/grandmaster.png',
        tier_colour: '#EB46FF',
        level: 16,
        rank_score: 4562.16,
        peak_score: 4601,
        wins: 70,
        matches: 120,
        win_rate: (70 / 120) * 100,
        season: 3,
      },
    ]);
  });

  it('finds the list under players, data, leaderboard, data.players or bare; a tier as text; the given rate without counts', () => {
    const plain = { ...ENTRY, rank: { ...ENTRY.rank, rank: 'Celestial I', win_count: null, battle_count: undefined } };
    for (const body of [{ players: [plain] }, { data: [plain] }, { leaderboard: [plain] }, { data: { players: [plain] } }, [plain]]) {
      const [e] = schemas.topPlayers.parse(body).players;
      expect(e).toMatchObject({ uid: '1403392756', tier: 'Celestial I', tier_image: null, win_rate: 58.3 });
    }
    // An entry without a uid, or no entry at all, keeps its place: every place after it stays right.
    expect(schemas.topPlayers.parse({ players: [{ name: 'x' }, null, ENTRY] }).players.map((p) => [p.uid, p.name])).toEqual([
      [null, 'x'],
      [null, null],
      ['1403392756', 'Card1gan'],
    ]);
    // Without a win count, the API's own rate stands, never 0.
    expect(schemas.topPlayers.parse({ players: [{ ...ENTRY, rank: { ...ENTRY.rank, win_count: undefined } }] }).players[0]).toMatchObject({
      wins: null,
      matches: 120,
      win_rate: 58.3,
    });
    expect(schemas.topPlayers.parse({ players: [], pagination: { total_players: 0 } }).total_players).toBe(0);
  });

  it('refuses a body with no list of players', () => {
    for (const body of [{ result: { unexpected: true } }, { players: 'none' }, null, 'text']) expect(schemas.topPlayers.safeParse(body).success).toBe(false);
  });
});

describe('the season listing', () => {
  it('reads numbers, numeric text and objects with names and dates; drops what no season can be', () => {
    const parsed = schemas.seasons.parse({
      seasons: [0, '1', 1.5, { season: 2, name: 'Hellfire Gala', starts_at: '2025-04-11T09:00:00Z', ends_at: 1_752_217_200 }, -1, 'x', 1.25, null],
    });
    expect(parsed.seasons).toEqual([
      { number: 0, name: null, starts_at: null, ends_at: null },
      { number: 1, name: null, starts_at: null, ends_at: null },
      { number: 1.5, name: null, starts_at: null, ends_at: null },
      { number: 2, name: 'Hellfire Gala', starts_at: Date.parse('2025-04-11T09:00:00Z'), ends_at: 1_752_217_200_000 },
    ]);
    expect(schemas.seasons.parse([3, 3.5]).seasons.map((s) => s.number)).toEqual([3, 3.5]);
    expect(schemas.seasons.parse({ data: [{ number: '4' }] }).seasons.map((s) => s.number)).toEqual([4]);
    expect(schemas.seasons.safeParse({ current: 3 }).success).toBe(false);
  });
});

describe('the player search', () => {
  it('reads {name, uid} bare, under player or data, or first in a list; no uid is nobody', () => {
    for (const body of [
      { name: 'Card1gan', uid: '1403392756' },
      { player: { name: 'Card1gan', uid: 1403392756 } },
      { data: { name: 'Card1gan', uid: '1403392756' } },
      [{ name: 'Card1gan', uid: '1403392756' }],
    ]) {
      expect(schemas.foundPlayer.parse(body)).toEqual({ name: 'Card1gan', uid: '1403392756' });
    }
    expect(schemas.foundPlayer.parse({ name: 'Ghost', uid: '' })).toEqual({ name: 'Ghost', uid: null });
    expect(schemas.foundPlayer.parse([])).toEqual({ name: null, uid: null });
  });
});

describe('through the client, against the replica', () => {
  let r: Replica;
  let api: RivalsApi;
  beforeAll(async () => {
    r = await startReplica();
    api = new RivalsApi({ baseUrl: r.url, apiKey: r.apiKey });
  });
  afterAll(async () => {
    await api.close();
    await r.close();
  });

  it('asks the ladder by page, limit, device and season, PlayStation as psn; a limit above 100 as 100', async () => {
    const page = await api.topPlayers({ page: 2, limit: 500, platform: 'ps', season: 2.5 });
    expect(page.data).toMatchObject({ page: 2, limit: 100, total_players: 1000, total_pages: 10 });
    expect(page.data.players).toHaveLength(100);
    expect(page.data.players.every((p) => p.season === 2.5)).toBe(true);
    // Refused before any request.
    const before = r.requests.total;
    expect(() => api.topPlayers({ platform: 'switch' })).toThrow(expect.objectContaining({ name: 'ApiArgumentError', argument: 'platform' }));
    expect(() => api.topPlayers({ season: 0.25 })).toThrow(expect.objectContaining({ name: 'ApiArgumentError', argument: 'season' }));
    expect(r.requests.total).toBe(before);
  });

  it('lists the seasons, and a season listed later once the cache is bypassed', async () => {
    expect((await api.seasons()).data.seasons.map((s) => s.number)).toEqual([0, 1, 1.5, 2, 2.5, 3]);
    const res = await fetch(`${r.url}/__replica/seasons`, { method: 'POST', body: JSON.stringify({ season: 3.5, name: 'Test Season' }) });
    expect(res.status).toBe(201);
    expect((await api.seasons()).data.seasons.at(-1)).toEqual({ number: 3.5, name: 'Test Season', starts_at: null, ends_at: null });
  });

  it('finds a player by a name, closest within a typo; a miss is not_found (the 400 "Player not found")', async () => {
    expect((await api.findPlayer('Card1gn')).data).toEqual({ name: 'Card1gan', uid: '1403392756' });
    const miss = await api.findPlayer('Zzqxwv Nobody').catch((e: unknown) => e);
    expect(miss).toBeInstanceOf(ApiError);
    expect(miss).toMatchObject({ kind: 'not_found', status: 400 });
  });

  it('says bad_response, well formed, for an answer in a form it does not know', async () => {
    const server = await cannedServer(200, '{"result": {"unexpected": true}}');
    const c = new RivalsApi({ baseUrl: server.url, apiKey: 'k' });
    try {
      for (const call of [() => c.topPlayers(), () => c.seasons()]) {
        expect(await call().catch((e: unknown) => e)).toMatchObject({ kind: 'bad_response', wellFormed: true });
      }
    } finally {
      await c.close();
      server.close();
    }
  });
});

describe('a private profile', () => {
  it('is a 403 for a player read, or a 200 whose body says status 403; a 403 elsewhere is not', async () => {
    for (const [status, body] of [
      [403, '{"error": true, "message": "This player profile is private.", "status": 403}'],
      [200, '{"error": true, "status": 403, "isPrivate": true}'],
    ] as const) {
      const server = await cannedServer(status, body);
      const c = new RivalsApi({ baseUrl: server.url, apiKey: 'k' });
      try {
        expect(await c.player('Sir Final').catch((e: unknown) => e)).toMatchObject({ kind: 'unauthorized', status: 403, privateProfile: true });
        expect(await c.matchHistoryV2('Sir Final').catch((e: unknown) => e)).toMatchObject({ privateProfile: true });
        expect(await c.heroes().catch((e: unknown) => e)).toMatchObject({ kind: 'unauthorized', privateProfile: false });
      } finally {
        await c.close();
        server.close();
      }
    }
  });
});

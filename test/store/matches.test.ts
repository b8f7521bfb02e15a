/**
 * The match store (src/store/matches.ts) and its migration (`0022_match_store`), each test on both engines (embedded SQLite
 * and PostgreSQL): every real sample detail reads back exactly as the API client parsed it, from another connection and
 * after a restart; a match is stored once however many processes store it; values that are easy to lose on the way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas } from '../../src/api/schemas.js';
import type { MatchDetail } from '../../src/api/schemas.js';
import type { State } from '../../src/store/state.js';
import { ENGINES, openAt, openTestState, type TestStateLocation } from '../helpers/state.js';

const SAMPLES = join(import.meta.dirname, '..', '..', 'src', 'replica', 'data', 'samples', 'match');
const schemas = createSchemas(createImageResolver('https://images.example/rivals'));
/** Every recorded match detail, parsed as the API client parses it. */
const details: MatchDetail[] = readdirSync(SAMPLES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => schemas.match.parse(JSON.parse(readFileSync(join(SAMPLES, f), 'utf8'))));

/** A detail with what the samples lack: a draw, no result, no hero, a player's empty hero list, quotes and non-ASCII text. */
const edgy = (): MatchDetail => {
  const base = structuredClone(details[0]!);
  const [a, b, c] = base.players;
  return {
    ...base,
    match_uid: 'edge_1',
    map_id: null,
    game_mode_id: null,
    players: [
      { ...a!, nick_name: 'Ｉｒｏｎ "Fist" 鋼', result: 'draw', is_win: null, camp: 0, badges: [] },
      { ...b!, result: null, is_win: null, cur_hero_id: null, cur_hero_icon: null, heroes: [] },
      { ...c!, heroes: c!.heroes.map((h) => ({ ...h, hero_id: null, play_time: null, session_hit_rate: null })) },
    ],
  };
};

describe.each(ENGINES)('on %s', (engine) => {
  let state: State & { where: TestStateLocation };
  /** A second connection to the same database: another process's view. */
  let other: State;
  beforeAll(async () => {
    state = await openTestState(engine);
    other = await openAt(state.where);
  });
  afterAll(async () => {
    await other?.close();
    await state?.close();
  });

  it('has the real samples to store, each with its two teams', () => {
    expect(details.length).toBeGreaterThanOrEqual(4);
    for (const d of details) expect(new Set(d.players.map((p) => p.camp))).toEqual(new Set([0, 1]));
  });

  it('reads every real sample back exactly as parsed, with when it was stored, from another connection and after a restart', async () => {
    for (const [n, d] of details.entries()) expect(await state.matches.put(d, 1_750_000_000_000 + n)).toBe(true);
    for (const [n, d] of details.entries()) expect(await other.matches.get(d.match_uid)).toEqual({ detail: d, storedAt: 1_750_000_000_000 + n });
    const reopened = await openAt(state.where);
    try {
      expect((await reopened.matches.get(details[0]!.match_uid))?.detail).toEqual(details[0]);
    } finally {
      await reopened.close();
    }
    expect(await state.matches.get('never_read')).toBeNull();
    expect(await state.matches.stored([details[0]!.match_uid, 'never_read', details[1]!.match_uid])).toEqual(
      new Set([details[0]!.match_uid, details[1]!.match_uid]),
    );
  });

  it('stores a match once: a second put, from this process or another, changes nothing and says so', async () => {
    const before = await state.matches.count();
    const d = { ...details[0]!, players: details[0]!.players.map((p) => ({ ...p, nick_name: 'Changed' })) };
    expect(await other.matches.put(d, 1_800_000_000_000)).toBe(false);
    expect(await state.matches.count()).toBe(before);
    const kept = await state.matches.get(d.match_uid);
    expect(kept?.storedAt).toBe(1_750_000_000_000);
    expect(kept?.detail.players.map((p) => p.nick_name)).toEqual(details[0]!.players.map((p) => p.nick_name));
  });

  it('keeps draws, missing results, heroes and figures, and text in any script', async () => {
    const d = edgy();
    expect(await state.matches.put(d, 1)).toBe(true);
    expect((await other.matches.get('edge_1'))?.detail).toEqual(d);
  });

  // PostgreSQL only: SQLite has one writer, and two of its connections in one thread would wait on each other's lock
  // synchronously; the sequential case above covers it.
  it.runIf(engine === 'postgres')('stores the same detail from two connections at once exactly once', async () => {
    const d = { ...details[1]!, match_uid: 'raced_1' };
    const stored = await Promise.all([state.matches.put(d, 5), other.matches.put(d, 6)]);
    expect(stored.filter(Boolean)).toHaveLength(1);
    expect((await state.matches.get('raced_1'))?.detail.players).toHaveLength(d.players.length);
  });
});

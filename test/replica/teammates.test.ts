/**
 * Profiles the replica derives for players it knows only from recorded match details (src/replica/data/teammates.ts):
 * checked against the raw sample files, and served by the replica once added.
 */
import { describe, expect, it } from 'vitest';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas } from '../../src/api/schemas.js';
import { loadDataset } from '../../src/replica/data/dataset.js';
import { addTeammateProfile, teammateProfile } from '../../src/replica/data/teammates.js';
import { startReplica } from '../../src/replica/server.js';
import { formatUpdateTime } from '../../src/game/update-times.js';

type RawHero = { hero_id: number; play_time: number; kills: number };
type RawPlayer = {
  player_uid: number | string;
  nick_name: string;
  cur_hero_id: number;
  is_win: number;
  kills: number;
  deaths: number;
  assists: number;
  player_heroes: RawHero[];
};

const dataset = loadDataset();
const schemas = createSchemas(createImageResolver('https://img.test/rivals'));
const captured = new Set(dataset.players.keys());
/** The match uids a capture's own history lists. */
const dated = new Set([...dataset.players.values()].flatMap((p) => (p.match_history as { match_uid: string }[]).map((m) => m.match_uid)));
/** Each uncaptured player's rows of the recorded matches that a capture dates, straight from the sample files. */
const rowsOf = new Map<string, RawPlayer[]>();
for (const [matchUid, body] of dataset.matches) {
  if (!dated.has(matchUid)) continue;
  for (const p of (body.match_details as { match_players: RawPlayer[] }).match_players) {
    const uid = String(p.player_uid);
    if (!captured.has(uid)) rowsOf.set(uid, [...(rowsOf.get(uid) ?? []), p]);
  }
}
/** The uncaptured player of the most recorded matches: the playground's first seated teammate. */
const [teammate, rows] = [...rowsOf].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))[0]!;

describe('a teammate’s derived profile', () => {
  it('holds exactly the recorded matches that name them, with their wins, kills and heroes as the rows give them', () => {
    expect(rows.length).toBeGreaterThan(1);
    const profile = schemas.player.parse(teammateProfile(dataset, teammate));
    expect(profile.uid).toBe(teammate);
    expect(profile.name).toBe(rows[0]!.nick_name);
    expect(profile.is_private).toBe(false);
    // No capture has their rank or level: unranked, not a guess.
    expect(profile.rank.name).toBeNull();
    expect(profile.level).toBeNull();
    expect(profile.recent_matches.map((m) => m.match_uid).sort()).toEqual(
      [...dataset.matches]
        .filter(([, b]) => (b.match_details as { match_players: RawPlayer[] }).match_players.some((p) => String(p.player_uid) === teammate))
        .map(([u]) => u)
        .filter((u) => dated.has(u))
        .sort(),
    );
    // Invariants against the raw rows: the profile's wins are the rows' wins, its kills their kills.
    const wins = rows.filter((p) => p.is_win === 1).length;
    expect(profile.overall.total_matches).toBe(rows.length);
    expect(profile.overall.total_wins).toBe(wins);
    expect(profile.recent_matches.filter((m) => m.player.is_win === true)).toHaveLength(wins);
    const modes = [profile.overall.ranked, profile.overall.unranked];
    expect(modes.reduce((t, m) => t + (m?.matches ?? 0), 0)).toBe(rows.length);
    expect(modes.reduce((t, m) => t + (m?.kills ?? 0), 0)).toBe(rows.reduce((t, p) => t + p.kills, 0));
    // As captured profiles count (docs/data.md): a match once, for the hero its row names, so the heroes' matches and
    // wins add up to the totals; play time and kills to each hero played, so a hero switched to holds time alone.
    const heroes = [...profile.heroes_ranked, ...profile.heroes_unranked];
    expect(heroes.reduce((t, h) => t + h.matches, 0)).toBe(rows.length);
    expect(heroes.reduce((t, h) => t + h.wins, 0)).toBe(wins);
    const byHero = new Map<number, { time: number; kills: number; matches: number }>();
    for (const p of rows)
      for (const h of p.player_heroes) {
        const t = byHero.get(h.hero_id) ?? { time: 0, kills: 0, matches: 0 };
        byHero.set(h.hero_id, { time: t.time + h.play_time, kills: t.kills + h.kills, matches: t.matches + (h.hero_id === p.cur_hero_id ? 1 : 0) });
      }
    expect(new Set(heroes.map((h) => Number(h.hero_id)))).toEqual(new Set(byHero.keys()));
    for (const h of heroes) {
      const raw = byHero.get(Number(h.hero_id))!;
      expect(h.play_time).toBeCloseTo(raw.time, 3);
      expect(h.kills).toBe(raw.kills);
      expect(h.matches).toBe(raw.matches);
    }
    expect(heroes.some((h) => h.matches === 0 && (h.play_time ?? 0) > 0)).toBe(true);
    // Its update time is its newest recorded match's (the invariant the bot's freshness reads hold captures to).
    const newest = Math.max(...profile.recent_matches.map((m) => m.time ?? 0));
    expect(profile.updates?.last_inserted_match).toBe(formatUpdateTime(newest * 1000));
  });

  it('is none for a player no recorded match names, and a captured player is left as captured', () => {
    expect(teammateProfile(dataset, '999999999')).toBeUndefined();
    const fresh = loadDataset();
    const [capturedUid, body] = [...fresh.players][0]!;
    expect(addTeammateProfile(fresh, capturedUid)).toBe(true);
    expect(fresh.players.get(capturedUid)).toBe(body);
    expect(addTeammateProfile(fresh, '999999999')).toBe(false);
    expect(fresh.players.has('999999999')).toBe(false);
  });

  it('is served by the replica once added, by uid and by name, with its match history, and marked derived', async () => {
    const fresh = loadDataset();
    const replica = await startReplica({ port: 0, dataset: fresh });
    try {
      const get = (path: string) => fetch(`${replica.url}${path}`, { headers: { 'x-api-key': 'replica-key' } });
      expect((await get(`/api/v1/player/${teammate}`)).status).toBe(404);
      expect(addTeammateProfile(fresh, teammate)).toBe(true);
      const byUid = await get(`/api/v1/player/${teammate}`);
      expect(byUid.status).toBe(200);
      expect(byUid.headers.get('x-replica-provenance')).toBe('derived');
      const byName = await get(`/api/v1/player/${encodeURIComponent(rows[0]!.nick_name)}`);
      expect(((await byName.json()) as { uid: number }).uid).toBe(Number(teammate));
      const history = (await (await get(`/api/v1/player/${teammate}/match-history`)).json()) as { match_history: unknown[] };
      expect(history.match_history).toHaveLength(rows.length);
      const v2 = await get(`/api/v2/player/${teammate}/match-history`);
      expect(v2.status).toBe(200);
      expect(((await v2.json()) as { match_history: unknown[] }).match_history).toHaveLength(rows.length);
    } finally {
      await replica.close();
    }
  });
});

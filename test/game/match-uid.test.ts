/** What a match uid says of its match, checked on every real history row against the row's own map and times. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchUidMapId, matchUidStart } from '../../src/game/match-uid.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { raw, realProfiles } from './samples.js';

/** Every real history row once by uid: the profiles' own and the captured v1 and v2 pages, with its map id and end time. */
function realRows(): { uid: string; mapId: string | null; end: number | null }[] {
  const rows = new Map<string, { uid: string; mapId: string | null; end: number | null }>();
  for (const p of Object.values(realProfiles)) for (const m of p.recent_matches) rows.set(m.match_uid, { uid: m.match_uid, mapId: m.map_id, end: m.time });
  for (const folder of ['match-history-v1', 'match-history-v2']) {
    for (const file of readdirSync(join(SAMPLES_DIR, folder)).filter((f) => f.endsWith('.json'))) {
      for (const entry of raw(folder, file).match_history as Record<string, unknown>[]) {
        const uid = String(entry.match_uid);
        rows.set(uid, { uid, mapId: String(entry.match_map_id), end: Number(entry.match_time_stamp) });
      }
    }
  }
  return [...rows.values()];
}

describe('match uids', () => {
  it('embed the map id in their third part since the _11 format, on every real row; older uids embed none', () => {
    const rows = realRows();
    const embedding = rows.filter((r) => matchUidMapId(r.uid) !== null);
    for (const r of embedding) expect(matchUidMapId(r.uid), r.uid).toBe(r.mapId);
    // Every newer uid (_11, _12, _13) names its map; no older one (_10, _50) names any.
    for (const r of rows) expect(matchUidMapId(r.uid) !== null, r.uid).toBe(!/_1[0]$|_50$/.test(r.uid));
    expect(embedding.length).toBeGreaterThanOrEqual(70);
    expect(rows.length - embedding.length).toBeGreaterThanOrEqual(100);
    expect(matchUidMapId('5518294_1749102302_1290153_11001_11')).toBe('1290');
    expect(matchUidMapId('6713355_1740604074_322_11001_10')).toBeNull();
    expect(matchUidMapId('6713785_1741147395_1378_11001_10')).toBeNull();
    expect(matchUidMapId('abc')).toBeNull();
    expect(matchUidMapId('1_2_0129000_4_5')).toBeNull();
  });

  it('carry the match’s start: before its end by about its length, on every real row', () => {
    const now = Date.UTC(2026, 0, 1);
    for (const r of realRows()) {
      const start = matchUidStart(r.uid, now);
      expect(start, r.uid).not.toBeNull();
      // Hero select and loading come before the length the row counts: the start is before the end, by under 40 minutes.
      expect(r.end! - start!, r.uid).toBeGreaterThan(0);
      expect(r.end! - start!, r.uid).toBeLessThan(2_400);
    }
    expect(matchUidStart('1_2_3_4_5', now)).toBeNull();
    // A start later than a day from now is no start.
    expect(matchUidStart(`1_${now / 1000 + 2 * 86_400}_3_4_5`, now)).toBeNull();
  });
});

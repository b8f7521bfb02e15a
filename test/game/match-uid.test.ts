/** What a match uid says of its match, checked on every real history row against the row's own map and times. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMatchUid, matchUidMapId, matchUidStart, rowStart } from '../../src/game/match-uid.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';
import { raw, realProfiles } from './samples.js';

/** Every real history row once by uid: the profiles' own and the captured v1 and v2 pages, with its map id and end time. */
function realRows(): { uid: string; mapId: string | null; end: number | null; seconds: number | null }[] {
  const rows = new Map<string, { uid: string; mapId: string | null; end: number | null; seconds: number | null }>();
  for (const p of Object.values(realProfiles))
    for (const m of p.recent_matches) rows.set(m.match_uid, { uid: m.match_uid, mapId: m.map_id, end: m.time, seconds: m.duration });
  for (const folder of ['match-history-v1', 'match-history-v2']) {
    for (const file of readdirSync(join(SAMPLES_DIR, folder)).filter((f) => f.endsWith('.json'))) {
      for (const entry of raw(folder, file).match_history as Record<string, unknown>[]) {
        const uid = String(entry.match_uid);
        const seconds = Number(entry.match_play_duration);
        rows.set(uid, { uid, mapId: String(entry.match_map_id), end: Number(entry.match_time_stamp), seconds: Number.isFinite(seconds) ? seconds : null });
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

  it('the uid’s time is the start and match_time_stamp the end: the end comes after the start by the match’s length and more, on every real row', () => {
    const timed = realRows().filter((r) => r.seconds !== null);
    expect(timed.length).toBeGreaterThan(150);
    for (const r of timed) {
      // Hero select, loading and the result screen are outside the length the row counts: 30 s at the least.
      expect(r.end! - matchUidStart(r.uid, Date.UTC(2026, 0, 1))! - r.seconds!, r.uid).toBeGreaterThanOrEqual(30);
    }
  });

  it('date every real row by its start, the one its scoreboard gives; a uid with none, by its end less its length', () => {
    for (const r of realRows()) expect(rowStart({ match_uid: r.uid, time: r.end, duration: r.seconds }), r.uid).toBe(Number(r.uid.split('_')[1]));
    expect(rowStart({ match_uid: 'm1', time: 1741000400, duration: 400.4 })).toBe(1741000000);
    // A uid's time after its row's end, or a day before it, is not that match's start.
    expect(rowStart({ match_uid: '1_1741000500_3_4_5', time: 1741000400, duration: 400 })).toBe(1741000000);
    expect(rowStart({ match_uid: '1_1740900000_3_4_5', time: 1741000400, duration: 400 })).toBe(1741000000);
    expect(rowStart({ match_uid: 'm1', time: 1741000400, duration: null })).toBeNull();
    expect(rowStart({ match_uid: '6713355_1740604074_322_11001_10', time: null, duration: null })).toBe(1740604074);
  });

  it('tell a match id as the API writes them from other text', () => {
    const now = Date.UTC(2026, 0, 1);
    for (const r of realRows()) expect(isMatchUid(r.uid, now), r.uid).toBe(true);
    for (const text of ['abc_123', '6713355_1740604074_322_11001', '6713355-1740604074-322-11001-10', '1_2_3_4_5', `1_${now / 1000 + 2 * 86_400}_3_4_5`, ''])
      expect(isMatchUid(text, now), text).toBe(false);
  });
});

/**
 * The Maps section names a map's modes from every row of the player the bot holds: the profile's own, the first page of
 * match history v2 (one read through the cache), the history pages the recent matches left in the cache, and the tracker's
 * records. The profile's map counts stay the profile's. On Double C's real captures: the August profile served, the June
 * capture's rows as the bot may hold them beside it.
 */
import { describe, expect, it } from 'vitest';
import { readForTracking } from '../../src/game/tracking.js';
import { v1FromEmbedded, v2FromV1 } from '../../src/replica/data/dataset.js';
import { profiles, raw } from '../game/samples.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const UID = '1786151874';
const JUNE = 'doublec8-double-c-1786151874-2025-06-05.json';
const V2_PATH = `/api/v2/player/${UID}/match-history`;

type Env = ReturnType<typeof useReplicaBot>;

/** The Maps section's lines, every page, by the map's bold label. */
async function mapLabels(env: Env, uid = UID): Promise<string[]> {
  const labels: string[] = [];
  for (let page = 1; page <= 5; page++) {
    const { payload } = await env.b.press(`pl.p:${uid}::maps:${page}:n`);
    labels.push(...payload.embeds[0]!.description!.split('\n').map((line) => /^\*\*(.+?)\*\* · /.exec(line)?.[1] ?? line));
    if (!payload.components.some((row) => JSON.stringify(row).includes(`:maps:${page + 1}:`))) break;
  }
  return labels;
}

const requests = (env: Env, path: string) => env.r.requests.byPath.get(path) ?? 0;

describe('history pages held in the cache', () => {
  const env = useReplicaBot();

  it('a map whose rows are on a v2 page not read names no mode; once the recent matches read that page, its mode', async () => {
    // Match history v2 as the API held it after the June capture: its 20 rows, newest first, then the May page's 40.
    const june = (raw('player', JUNE).match_history as Record<string, unknown>[]).map((m) => v2FromV1(v1FromEmbedded(m)));
    const may = env.r.dataset.historyV2.get(UID)!;
    env.r.dataset.historyV2.set(UID, [...june, ...may]);

    const v2Before = requests(env, V2_PATH);
    const first = await mapLabels(env);
    // One read of v2's first page, the one the recent matches start with, and no other history request.
    expect(requests(env, V2_PATH) - v2Before).toBe(1);
    expect(requests(env, `/api/v1/player/${UID}/match-history`)).toBe(0);
    // Page 1 holds the June rows: map 1286's one row is Quick Play, and Midtown has a Quick Play row and one against AI.
    expect(first).toContain('Unknown map (Quick Play, map 1286)');
    expect(first).toContain('Midtown (Quick Play, Practice vs AI)');
    // Birnin T'Challa's only Quick Play rows are on page 2, which nothing read.
    expect(first).toContain("Birnin T'Challa (Domination)");

    // The recent matches' last page reads v2's page 2: 20 newer profile rows, then the 60 rows of v2.
    const { payload } = await env.b.press(`pl.p:${UID}::matches:8:l`);
    expect(payload.embeds[0]!.description).toContain('Birnin T');
    expect(requests(env, V2_PATH) - v2Before).toBe(2);
    const after = await mapLabels(env);
    expect(after).toContain("Birnin T'Challa (Domination, Quick Play)");
    // Both pages held now: the section asked the API nothing more.
    expect(requests(env, V2_PATH) - v2Before).toBe(2);
    expect(after).toHaveLength(first.length);
  });

  it('a player with no stored v2 history: one read, its 404 remembered; v1 is looked up in the cache only', async () => {
    const sirFinal = '1117455441';
    const v2 = `/api/v2/player/${sirFinal}/match-history`;
    const v1 = `/api/v1/player/${sirFinal}/match-history`;
    const labels = await mapLabels(env, sirFinal);
    expect(labels.length).toBeGreaterThan(0);
    expect(requests(env, v2)).toBe(1);
    expect(requests(env, v1)).toBe(0);
    await mapLabels(env, sirFinal);
    expect(requests(env, v2)).toBe(1);
    // The recent matches fall back to v1; its answer is then held, and the Maps section reads it without a request.
    await env.b.press(`pl.s:${sirFinal}:`, ['matches']);
    expect(requests(env, v1)).toBe(1);
    expect(await mapLabels(env, sirFinal)).toEqual(labels);
    expect(requests(env, v1)).toBe(1);
  });
});

describe('the tracker’s records', () => {
  const env = useReplicaBot();

  it('name the modes of maps the API’s rows say nothing of, by each recorded match’s uid', async () => {
    const before = await mapLabels(env);
    expect(before).toContain('Unknown map (1286)');
    expect(before).toContain('Midtown (Quick Play)');

    // The bot tracked the player in June: it recorded the June capture's 20 matches, which no answer of the API holds now.
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    await env.b.state.tracking.follow(UID, 0);
    const read = readForTracking(profiles[JUNE]!);
    if (read.kind !== 'read') throw new Error('the June capture is not readable');
    const at = read.lastMatchAt! * 1000 + 60_000;
    const [claim] = await env.b.state.tracking.claim(at, 1, 60_000);
    await env.b.state.tracking.recordRead(claim!, { ...read, changed: true }, { intervalMs: 1 }, at);

    const after = await mapLabels(env);
    expect(after).toContain('Unknown map (Quick Play, map 1286)');
    expect(after).toContain('Midtown (Quick Play, Practice vs AI)');
    // Every other line as before: the records add modes, never take one away or change a count.
    const changed = after.filter((l, i) => l !== before[i]);
    expect(changed.sort()).toEqual(['Midtown (Quick Play, Practice vs AI)', 'Unknown map (Quick Play, map 1286)']);
  });
});

describe('when the history cannot be read', () => {
  const env = useReplicaBot();

  it('the section still answers, from the rows it holds, and says why in the log', async () => {
    env.r.setFaults({ forceStatus: 503, pathPrefix: V2_PATH });
    try {
      const labels = await mapLabels(env);
      // The profile's own rows still name their maps; v2's alone are left without a mode.
      expect(labels).toContain('Midtown (Competitive)');
      expect(labels).toContain('Midtown');
      expect(labels).toContain('Symbiotic Surface');
      expect(env.b.logLines.some((l) => l.includes('match history v2 unavailable'))).toBe(true);
    } finally {
      env.r.setFaults({});
    }
  });
});

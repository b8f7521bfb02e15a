/**
 * /player → Seasons and rank history: its newest line is the header's rank on every real capture, and a point the tracker
 * read after a season change stays in the season it holds, dated when its rank was reached, not when it was read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PlayerProfile } from '../../src/api/schemas.js';
import type { Fetched } from '../../src/cache/response-cache.js';
import { parseChartSpec, type RankHistoryChart } from '../../src/charts/specs.js';
import { playerView } from '../../commands/player.js';
import { rankSummary } from '../../src/game/profile.js';
import { rankScore } from '../../src/game/ranks.js';
import { Tracker } from '../../src/jobs/tracker.js';
import { toMessagePayload } from '../../src/render/view.js';
import { everyRawProfile, profiles, schemas } from '../game/samples.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';
const JUNE = profiles['doublec8-double-c-1786151874-2025-06-05.json']!;
const AUGUST = profiles['doublec8-double-c-1786151874-2025-08-05.json']!;
/** 2025-08-04 12:00 UTC: Season 3 has begun (the August capture's rows go back to July 29), and the profile read still holds Season 2.5. */
const READ_AT = Date.UTC(2025, 7, 4, 12);

const FIXTURES = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
const RAW: Record<string, Record<string, unknown>> = {
  ...Object.fromEntries(
    readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>]),
  ),
  ...everyRawProfile(),
};

const fetched = (data: PlayerProfile): Fetched<PlayerProfile> => ({ data, fetchedAt: 0, ageMs: 0, stale: false, source: 'upstream' });

/** The rank history's lines, newest first, every page; and its chart. */
async function rankHistory(p: PlayerProfile): Promise<{ lines: string[]; chart: RankHistoryChart | null }> {
  const lines: string[] = [];
  let chart: RankHistoryChart | null = null;
  for (let page = 1; page <= 20; page++) {
    const view = await playerView(fetched(p), 'rank-history', page, null, env.b.ctx);
    if (page === 1 && view.charts?.[0]) chart = parseChartSpec(view.charts[0].spec) as RankHistoryChart;
    const payload = toMessagePayload(view);
    lines.push(...payload.embeds[0]!.description!.split('\n').filter((l) => l.startsWith('<t:')));
    if (!payload.components.some((row) => JSON.stringify(row).includes(`:rank-history:${page + 1}:`))) break;
  }
  return { lines, chart };
}

/** "<t:…:R> · +20.1 → 3,752 · Gold III → Gold II · Season 3" → its time, score, tier (the one reached) and season. */
function parseLine(line: string): { time: number; score: string; tier: string; season: string } {
  const parts = line.split(' · ');
  return {
    time: Number(/<t:(\d+):/.exec(parts[0]!)![1]),
    score: parts[1]!.split(' → ').at(-1)!,
    tier: parts.length > 3 ? parts[2]!.split(' → ').at(-1)! : '',
    season: parts.at(-1)!,
  };
}

describe('Seasons and rank history on every real capture', () => {
  for (const [file, body] of Object.entries(RAW)) {
    it(`${file}: the newest line is the header’s rank, score, tier and season`, async () => {
      const p = schemas.player.parse(body);
      const header = rankSummary(p);
      const { lines, chart } = await rankHistory(p);
      if (header.score === null) return expect(lines, file).toEqual([]);
      expect(parseLine(lines[0]!), file).toEqual({
        time: header.reachedAt,
        score: rankScore(header.score),
        tier: header.tier,
        season: `Season ${header.season!.number}`,
      });
      // The chart's newest season ends where the list begins.
      const line = chart!.seasons.find((s) => s.name === `Season ${header.season!.number}`)!;
      expect(line.points.at(-1), file).toEqual({ time: header.reachedAt, score: header.score });
    });
  }
});

describe('a point the tracker read across a season change', () => {
  it('stays in the season it holds, dated when its rank was reached: the newest line is still the header’s', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    await env.b.state.tracking.follow(UID, 0);
    // The tracker reads the profile early in Season 3, before the player asks for an update: it still holds Season 2.5.
    const tracker = new Tracker({
      api: { player: async () => fetched(JUNE) },
      tracking: env.b.state.tracking,
      spare: () => 0,
      logger: env.b.ctx.logger,
      now: () => READ_AT,
      minMs: 60_000,
      maxMs: 3_600_000,
    });
    expect(await tracker.step()).toBe(1);
    await tracker.settled();
    const [snapshot] = await env.b.state.tracking.snapshots(UID);
    expect([snapshot!.at, snapshot!.season, Math.trunc(snapshot!.score!)]).toEqual([READ_AT, 4, 3507]);

    // The member then sees the updated profile: Season 3, Gold II 3,752.
    const header = rankSummary(AUGUST);
    expect([header.tier, rankScore(header.score), header.season?.number]).toEqual(['Gold II', '3,752', '3']);
    const { lines, chart } = await rankHistory(AUGUST);
    const parsed = lines.map(parseLine);
    expect(parsed[0]).toEqual({ time: header.reachedAt, score: '3,752', tier: 'Gold II', season: 'Season 3' });
    // The read's point is Season 2.5's, at that season's last change (June 6), not at the read in August.
    const june = parsed.find((l) => l.season === 'Season 2.5' && l.score === '3,507');
    expect(june).toEqual({ time: 1749169508, score: '3,507', tier: 'Silver I', season: 'Season 2.5' });
    expect(parsed.some((l) => l.time === READ_AT / 1000)).toBe(false);
    // Newest first: by season, then by time within it.
    const order = parsed.map((l) => [Number(l.season.replace('Season ', '')), l.time] as const);
    for (let i = 1; i < order.length; i++) {
      const [[sa, ta], [sb, tb]] = [order[i - 1]!, order[i]!];
      expect(sa > sb || (sa === sb && ta >= tb), `${lines[i - 1]} before ${lines[i]}`).toBe(true);
    }
    // The chart draws it on Season 2.5's line; Season 3's line ends at the header.
    const season25 = chart!.seasons.find((s) => s.name === 'Season 2.5')!;
    expect(season25.points).toContainEqual({ time: 1749169508, score: JUNE.rank_seasons.at(-1)!.rank_score });
    expect(chart!.seasons.find((s) => s.name === 'Season 3')!.points.at(-1)).toEqual({ time: header.reachedAt, score: header.score });
  });
});

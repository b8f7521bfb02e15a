/** /player on a tracked player: the rank timeline from the bot's records beside the API's, and "since last week". */
import { describe, expect, it } from 'vitest';
import { readForTracking } from '../../src/game/tracking.js';
import { profiles } from '../game/samples.js';
import { MEMBER, useReplicaBot } from '../helpers/bot.js';

const env = useReplicaBot();
const UID = '1786151874';
const CAPTURES = [
  'doublec8-double-c-1786151874-2025-05-26.json',
  'doublec8-double-c-1786151874-2025-06-05.json',
  'doublec8-double-c-1786151874-2025-08-05.json',
];
/** 2025-08-05 13:20 UTC, the day of the last capture. */
const NOW = 1_754_400_000_000;

/** Records each capture as the tracker would have, read a minute after its newest match. */
async function recordCaptures(): Promise<number[]> {
  const scores: number[] = [];
  for (const file of CAPTURES) {
    const read = readForTracking(profiles[file]!);
    if (read.kind !== 'read') throw new Error(`${file} is not readable`);
    const at = read.lastMatchAt! * 1000 + 60_000;
    const [claim] = await env.b.state.tracking.claim(at, 1, 60_000);
    if (!claim) throw new Error('the player was not due');
    await env.b.state.tracking.recordRead(claim, { ...read, changed: true }, { intervalMs: 1 }, at);
    scores.push(read.matches.find((m) => m.time === read.lastMatchAt)!.newScore!);
  }
  return scores;
}

const fieldsOf = (e: { fields?: { name: string; value: string }[] }) => Object.fromEntries((e.fields ?? []).map((f) => [f.name, f.value]));
// As the embeds write a rank score: whole points, cut (src/game/ranks.ts).
const score = (n: number) => Math.trunc(n).toLocaleString('en-US');

describe('/player on a tracked player', () => {
  it('before tracking, the rank history says that linking starts it', async () => {
    const { payload } = await env.b.press(`pl.s:${UID}:`, ['rank-history']);
    expect(payload.embeds[0]!.description).toMatch(/Link this account with (`\/link`|<\/link:\d+>) and the bot records its rank after every match it sees\./);
  });

  it('the rank history holds each recorded capture’s score, the header’s rank is its last point, and the link line is gone', async () => {
    await env.b.ctx.links.link(MEMBER.userId, { uid: UID, name: 'Double C' }, true, 0);
    await env.b.state.tracking.follow(UID, 0);
    const scores = await recordCaptures();
    env.b.clock.now = NOW;
    const pages: string[] = [];
    for (let page = 1; page <= 10; page++) {
      const { payload } = await env.b.press(`pl.p:${UID}::rank-history:${page}:n`);
      pages.push(payload.embeds[0]!.description!);
      if (!payload.components.some((row) => JSON.stringify(row).includes(`:rank-history:${page + 1}:`))) break;
    }
    const text = pages.join('\n');
    // The May and June captures' points come from the bot's records alone: the API's August profile no longer has them.
    for (const s of scores) expect(text).toContain(score(s));
    expect(text).not.toContain('Link this account');
    const first = pages[0]!.split('\n')[1]!;
    expect(first).toContain('3,752');
  });

  it('the profile shows the week: score from its first point to now, and the matches and win rate of the last 7 days', async () => {
    env.b.clock.now = NOW;
    const { payload } = await env.b.run('player', { query: UID });
    const fields = fieldsOf(payload.embeds[0]!);
    const week = Object.entries(fields).find(([name]) => name.startsWith('Since '));
    expect(week, JSON.stringify(Object.keys(fields))).toBeDefined();
    // Tracking began within the week (the August capture): "Since" its first point of the season, not "Since last week".
    expect(week![0]).toMatch(/^Since <t:(\d+):D>$/);
    const since = Number(/<t:(\d+):D>/.exec(week![0])![1]);
    expect(since).toBeGreaterThan(NOW / 1000 - 7 * 86_400);
    expect(week![1]).toMatch(/^[\d,]+ → 3,752 \(\+[\d.,]+\)/);
    // The 20 matches the August capture embeds, all within the week: 9 won.
    expect(week![1]).toContain('20 matches · 45.0 %');
  });
});

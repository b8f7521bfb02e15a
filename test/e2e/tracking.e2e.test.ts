/**
 * End to end: a member links an account over the fake Discord, the replica serves that player's real captures in date
 * order, and the bot's tracker (wired as in production, with intervals of seconds) records each; /player then shows
 * every capture's score on the rank timeline and the week, and /privacy delete leaves no row behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readForTracking } from '../../src/game/tracking.js';
import type { Replica } from '../../src/replica/server.js';
import type { Tables } from '../../src/store/schema.js';
import type { State } from '../../src/store/state.js';
import { profiles } from '../game/samples.js';
import { replica } from '../helpers/replica.js';
import { memoryState } from '../helpers/state.js';
import { pollUntil } from '../helpers/until.js';
import { commandInteraction, componentInteraction, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { answerOf, bootBackgroundBot } from './helpers.js';

const MEMBER = '515000000000000001';
const UID = '1786151874';
const CAPTURES = [
  'doublec8-double-c-1786151874-2025-05-26.json',
  'doublec8-double-c-1786151874-2025-06-05.json',
  'doublec8-double-c-1786151874-2025-08-05.json',
];

let r: Replica;
let discord: FakeDiscord;
let state: State;
let bot: Awaited<ReturnType<typeof bootBackgroundBot>>;

beforeAll(async () => {
  r = await replica();
  r.serveCapture(`player/${CAPTURES[0]}`);
  discord = await startFakeDiscord();
  state = memoryState();
  bot = await bootBackgroundBot(discord, r, state);
  bot.background.tracker.start();
});
afterAll(async () => {
  await bot.close();
  await state.close();
  await discord.close();
  await r.close();
});

async function send(interaction: { id: string; token: string }) {
  discord.dispatchInteraction(interaction);
  return (await answerOf(discord, interaction)).embeds;
}

/** As the embeds write a rank score: whole points, cut. */
const score = (n: number) => Math.trunc(n).toLocaleString('en-US');

describe('a tracked player over three captures', () => {
  it('records each capture the replica serves, in date order', async () => {
    await send(commandInteraction(MEMBER, 'link', { player: UID }));
    for (const [i, file] of CAPTURES.entries()) {
      if (i > 0) r.serveCapture(`player/${file}`);
      const newest = (readForTracking(profiles[file]!) as { lastMatchAt: number }).lastMatchAt;
      await pollUntil(async () => (await state.tracking.matches(UID)).some((m) => m.time === newest), `the tracker to record ${file}`, { timeoutMs: 20_000 });
    }
    expect((await state.tracking.snapshots(UID)).length).toBeGreaterThanOrEqual(CAPTURES.length);
  });

  it('the rank timeline holds every capture’s score, newest first with the header’s rank', async () => {
    const pages: string[] = [];
    for (let page = 1; page <= 12; page++) {
      const id = page === 1 ? `pl.s:${UID}:` : `pl.p:${UID}::rank-history:${page}:n`;
      const embeds = await send(componentInteraction(MEMBER, MEMBER, id, page === 1 ? ['rank-history'] : undefined));
      pages.push(embeds[0]!.description ?? '');
      if (!/:R>/.test(embeds[0]!.description ?? '') || page * 10 >= 200) break;
    }
    const all = pages.join('\n');
    for (const file of CAPTURES) {
      const read = readForTracking(profiles[file]!) as { lastMatchAt: number; matches: { time: number; newScore: number | null }[] };
      const newest = read.matches.find((m) => m.time === read.lastMatchAt)!;
      expect(all, file).toContain(score(newest.newScore!));
    }
    expect(all).not.toContain('Link this account');
  });

  it('the profile of a tracked player leaves out a week with no match and no change', async () => {
    // The player is tracked: there are points to compare the week with.
    expect((await state.database.db.selectFrom('rank_snapshots').select('uid').where('uid', '=', UID).execute()).length).toBeGreaterThan(0);
    const embeds = await send(commandInteraction(MEMBER, 'player', {}));
    expect(embeds[0]!.fields!.find((f) => f.name === 'Rank score')?.value).toBe('3,752');
    // The captures are from 2025: nothing was played in the last 7 days, and the score has not moved since.
    expect(embeds[0]!.fields!.find((f) => f.name.startsWith('Since '))).toBeUndefined();
  });

  it('/privacy delete leaves no row about the member or their account', async () => {
    await send(commandInteraction(MEMBER, 'privacy', {}, { subcommand: 'delete' }));
    await send(componentInteraction(MEMBER, MEMBER, `pv.del:${MEMBER}`));
    const db = state.database.db;
    for (const table of ['account_links', 'member_settings', 'alert_members', 'member_mains', 'link_verifications'] as const) {
      expect(
        await db
          .selectFrom(table as keyof Tables)
          .selectAll()
          .where('user_id' as never, '=', MEMBER as never)
          .execute(),
        table,
      ).toEqual([]);
    }
    for (const table of ['tracked_players', 'rank_snapshots', 'tracked_matches'] as const) {
      expect(await db.selectFrom(table).selectAll().where('uid', '=', UID).execute(), table).toEqual([]);
    }
  });
});

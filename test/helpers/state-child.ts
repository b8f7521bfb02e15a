/**
 * A bot-like process for durability tests: it opens the state as the bot does (openState from
 * `DATA_DIR`, or `DATABASE_URL` for PostgreSQL) and then, by mode:
 * - `write <guildId> <channelId>`: saves a feed channel, prints ACK once the write resolved, then
 *   waits to be killed.
 * - `read <guildId>`: prints the stored patch-notes channel (MISSING when none) and exits.
 * - `changes <a|b> <count>`: prints READY, waits for GO on stdin, then opens the state (two processes
 *   started together on a new database migrate it at the same moment) and applies its side of `count`
 *   settings changes at once, to guilds `pair-0` to `pair-<count - 1>`, prints DONE and exits.
 *   Side `a` sets the leaderboard platform and the patch-notes channel, side `b` the ephemeral default
 *   and the balances channel: two processes, one per side, change different settings of the same
 *   guilds at the same time.
 */
import { createInterface } from 'node:readline';
import pino from 'pino';
import { openState } from '../../src/store/state.js';

const [mode, ...args] = process.argv.slice(2);
const open = () =>
  openState({
    dataDir: process.env.DATA_DIR ?? './data',
    databaseUrl: process.env.DATABASE_URL || undefined,
    logger: pino({ level: 'silent' }),
    // The tests check what is stored, not how fast: no deadline a slow machine could miss.
    settings: { readDeadlineMs: 120_000, writeDeadlineMs: 120_000 },
  });

/** What the two sides set on pair `i` (test/store/durability.test.ts checks for the same values). */
const pairValues = (i: number) => ({ platform: (['ps', 'xbox'] as const)[i % 2]!, patchNotes: `a-${i}`, balances: `b-${i}`, ephemeral: true });

if (mode === 'write') {
  const [guildId, channelId] = args;
  const state = await open();
  await state.settings.update(guildId!, (s) => {
    s.feeds.patchNotes = {
      channelId: channelId!,
      roleId: null,
      since: Date.now(),
      publish: false,
      backfill: 0,
      broken: null,
      lastDelivered: null,
      lastEdit: null,
    };
  });
  process.stdout.write('ACK\n');
  setInterval(() => undefined, 1_000); // stay alive until killed
} else if (mode === 'read') {
  const state = await open();
  const s = await state.settings.get(args[0]!);
  process.stdout.write(`${s.feeds.patchNotes?.channelId ?? 'MISSING'}\n`);
  await state.close();
  process.exit(0);
} else if (mode === 'changes') {
  const side = args[0] as 'a' | 'b';
  const count = Number(args[1]);
  process.stdout.write('READY\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'GO') break;
  lines.close();
  const state = await open();
  await Promise.all(
    [...Array(count).keys()].map((i) =>
      state.settings.update(`pair-${i}`, (s) => {
        const v = pairValues(i);
        const since = 1_000 + i;
        if (side === 'a') {
          s.leaderboardPlatform = v.platform;
          s.feeds.patchNotes = { channelId: v.patchNotes, roleId: null, since, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };
        } else {
          s.ephemeralByDefault = v.ephemeral;
          s.feeds.balances = { channelId: v.balances, roleId: null, since, publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };
        }
      }),
    ),
  );
  process.stdout.write('DONE\n');
  await state.close();
  process.exit(0);
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}

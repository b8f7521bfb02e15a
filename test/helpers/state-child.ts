/**
 * A child process for durability tests. `write <guildId> <channelId>`: saves a feed channel, prints
 * ACK when the write resolved, then waits to be killed. `read <guildId>`: prints the stored channel.
 * The store comes from REDIS_URL or DATA_DIR, as in the bot.
 */
import { GuildSettingsRepository } from '../../src/store/guild-settings.js';
import { createStateStore } from '../../src/store/state-store.js';

const [mode, guildId, channelId] = process.argv.slice(2);
const store = createStateStore({ redisUrl: process.env.REDIS_URL, dataDir: process.env.DATA_DIR ?? './data' });
const settings = new GuildSettingsRepository(store);
if (mode === 'write') {
  await settings.update(guildId!, (s) => {
    s.feeds.patchNotes = { channelId: channelId!, roleId: null, since: Date.now(), publish: false, backfill: 0, broken: null, lastDelivered: null };
  });
  process.stdout.write('ACK\n');
  setInterval(() => undefined, 1_000); // stay alive until killed
} else {
  const s = await settings.get(guildId!);
  process.stdout.write(`${s.feeds.patchNotes?.channelId ?? 'MISSING'}\n`);
  process.exit(0);
}

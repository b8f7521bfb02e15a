/**
 * Feed delivery under failure, with real bot processes against the fake Discord and a test-owned
 * replica: a process SIGKILLed in the middle of a fan-out and restarted delivers the rest and repeats
 * none, even when it takes the dead process's sends over after Discord's nonce window, and one SIGKILLed in the middle of the edits of a corrected post edits the rest and posts
 * nothing again (on both engines); two processes sharing one PostgreSQL database and one Redis deliver each
 * post once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_LEASE_MS } from '../../src/feeds/delivery.js';
import type { Replica } from '../../src/replica/server.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { ENGINES, newStateLocation, openAt, type TestStateLocation } from '../helpers/state.js';
import { replica, TEST_KEY } from '../helpers/replica.js';
import { dmChannelId, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { BOT_ARGS, CLOCK_PRELOAD } from '../helpers/bot-process.js';
import { pollUntil } from '../helpers/until.js';
import { afterPolls as afterPollsAt, patchNoteReads } from '../helpers/polls.js';

let r: Replica;
let discord: FakeDiscord;
const bots: { proc: ChildProcess; output: () => string }[] = [];

beforeAll(async () => {
  r = await replica();
  discord = await startFakeDiscord();
});
afterEach(async () => {
  for (const b of bots.splice(0)) {
    if (b.proc.exitCode === null && b.proc.signalCode === null) {
      const exited = new Promise((resolve) => b.proc.once('exit', resolve));
      b.proc.kill('SIGKILL');
      await exited;
    }
  }
  discord.setChannelDelay(0);
});
afterAll(async () => {
  await discord.close();
  await r.close();
});

function startBot(env: Record<string, string>) {
  let output = '';
  // A moved clock is the preload's: the bot has no clock of its own to set.
  const preload = env.CLOCK_OFFSET_FILE ? ['--import', CLOCK_PRELOAD] : [];
  const proc = spawn(process.execPath, [...preload, ...BOT_ARGS], {
    env: {
      PATH: process.env.PATH!,
      DISCORD_TOKEN: 'crash-token',
      DISCORD_API_URL: discord.apiUrl,
      RIVALS_API_KEY: TEST_KEY,
      RIVALS_API_BASE_URL: r.url,
      FEED_POLL_SECONDS: '1',
      // Polls every second are 240 requests a minute, far above the default rate; the rate limiter is not what this file tests.
      RIVALS_API_RPM: '100000',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const bot = { proc, output: () => output };
  bots.push(bot);
  return bot;
}

const until = <T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> =>
  pollUntil(probe, what, { timeoutMs, context: () => bots.map((b) => b.output().slice(-1500)).join('\n---\n') });

/** Waits until `n` more feed polls of the bots have ended (see test/helpers/polls.ts). */
const afterPolls = (n: number) =>
  afterPollsAt(
    () => patchNoteReads(r.requests.byPath),
    n,
    () => bots.map((b) => b.output().slice(-1500)).join('\n---\n'),
  );

const channelIds = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + 1).padStart(3, '0')}`);
const posts = (channelId: string) => discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${channelId}/messages`).length;
/** Reads of a channel's messages (Discord: "Get Channel Messages"). */
const reads = (channelId: string) => discord.calls.filter((c) => c.method === 'GET' && c.path === `/channels/${channelId}/messages`);

/** Subscribes one guild per channel to patch notes, in the store the bots will use. */
async function subscribeAll(where: TestStateLocation, channels: string[]) {
  const state = await openAt(where);
  try {
    for (const [i, channelId] of channels.entries()) {
      await state.settings.update(`95${String(i).padStart(16, '0')}`, (s) => {
        s.feeds.patchNotes = { channelId, roleId: null, since: Date.now(), publish: false, backfill: 0, broken: null, lastDelivered: null, lastEdit: null };
      });
    }
  } finally {
    await state.close();
  }
}

/**
 * A clock file for the bot (`CLOCK_OFFSET_FILE`, read by the test/fixtures/clock-offset.mjs preload): its clock is
 * real time plus the offset written. `set` moves it to an ISO time; the bot reads the file on every use of its clock.
 */
function clockOffsetFile() {
  const dir = mkdtempSync(join(tmpdir(), 'rivals-clock-'));
  const file = join(dir, 'offset');
  return {
    file,
    set: async (iso: string) => {
      // Renamed into place, so that the bot never reads a half-written file.
      writeFileSync(`${file}.next`, String(Date.parse(iso) - Date.now()));
      renameSync(`${file}.next`, file);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The bot's environment for the state at `where`. */
const stateEnv = (where: TestStateLocation): Record<string, string> => ({
  DATA_DIR: where.dataDir,
  ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}),
});

function addPost(id: string) {
  r.dataset.posts.patchNotes.unshift({ id, title: `Version ${id}`, date: '2099/06/01', overview: 'New.', fullContent: 'Text.', imagePath: '/x.jpg' });
}

describe('feed delivery under failure', () => {
  it.each(ENGINES)(
    '%s: a process killed with SIGKILL in the middle of a fan-out, restarted, delivers the rest and repeats none',
    async (engine) => {
      const where = await newStateLocation(engine);
      try {
        const channels = channelIds(engine === 'sqlite' ? '9610000000000000' : '9611000000000000', 20);
        const postId = engine === 'sqlite' ? '20990601' : '20990603';
        await subscribeAll(where, channels);
        const deliveries = async () => {
          const state = await openAt(where);
          try {
            const rows = await state.database.db.selectFrom('deliveries').select(['channel_id', 'state', 'attempts']).where('post_id', '=', postId).execute();
            return {
              rows,
              byState: (s: string) =>
                rows
                  .filter((d) => d.state === s)
                  .map((d) => d.channel_id)
                  .sort(),
              pending: (await state.feedState.pending('patchNotes')).length,
            };
          } finally {
            await state.close();
          }
        };

        const first = startBot(stateEnv(where));
        await until(() => first.output().includes(`"engine":"${engine}"`) && /"feed":"gameVersions".*feed initialised/.test(first.output()), 'the first poll');
        discord.setChannelDelay(250);
        addPost(postId);
        // Kill it once a few channels got the post, while others are on the wire or still queued.
        await until(() => channels.filter((c) => discord.channelMessages.get(c)?.length).length >= 5, 'the fan-out to start');
        first.proc.kill('SIGKILL');
        await new Promise((resolve) => first.proc.once('exit', resolve));
        const deliveredBefore = channels.filter((c) => discord.channelMessages.get(c)?.length).length;
        expect(deliveredBefore).toBeLessThan(20);
        // What the store knows at the crash: sends claimed (on the wire, or already answered but not yet
        // marked), and channels whose delivery never started.
        const atCrash = await deliveries();
        const inFlight = atCrash.byState('claimed');
        const notStarted = channels.filter((c) => !atCrash.rows.some((d) => d.channel_id === c));
        expect(inFlight.length).toBeGreaterThan(0);
        expect(inFlight.length).toBeLessThanOrEqual(8); // the fan-out concurrency
        expect(notStarted.length).toBeGreaterThan(0);

        discord.setChannelDelay(0);
        const second = startBot(stateEnv(where));
        // The restarted process delivers what never started at once...
        await until(() => notStarted.every((c) => discord.channelMessages.get(c)?.length), 'the channels never started to get the post');
        await until(async () => (await deliveries()).byState('done').length === 20 - inFlight.length, 'the restarted process to mark them done');
        // ...and leaves the claims of the dead process alone while their lease runs (a live process could still be sending them).
        await afterPolls(1);
        expect((await deliveries()).byState('claimed')).toEqual(inFlight);
        // Every send of the dead process that reached Discord has its message (Discord finishes a request whose client died).
        await until(() => inFlight.every((c) => (discord.channelMessages.get(c)?.length ?? 0) === posts(c)), 'the sends on the wire at the kill to land');
        const postsBefore = new Map(inFlight.map((c) => [c, posts(c)]));
        const sentBefore = inFlight.filter((c) => postsBefore.get(c)! > 0);
        expect(sentBefore.length).toBeGreaterThan(0);

        // The lease passes (the claims are aged by it, as five minutes would), and with it Discord's nonce window: a
        // send repeating a nonce now would post again. The claims are taken over and the fan-out finishes: a message
        // the dead process sent is found in its channel (by its text: Discord no longer returns its nonce) and recorded,
        // not posted again; a send that never left the dead process is posted.
        discord.expireNonces();
        const state = await openAt(where);
        try {
          await state.database.db
            .updateTable('deliveries')
            .set((eb) => ({ at: eb('at', '-', CLAIM_LEASE_MS) }))
            .where('post_id', '=', postId)
            .where('state', '=', 'claimed')
            .execute();
        } finally {
          await state.close();
        }
        await until(async () => (await deliveries()).pending === 0, 'the fan-out to finish');
        await afterPolls(2);
        for (const c of channels) expect(discord.channelMessages.get(c), c).toHaveLength(1);
        // Each claim taken over read its channel back, from before the claim; only the sends that never left were sent again.
        for (const c of inFlight)
          expect(
            reads(c).map((call) => new URLSearchParams(call.query).get('limit')),
            c,
          ).toEqual(['100']);
        for (const c of channels) expect(posts(c), c).toBe(inFlight.includes(c) ? Math.max(1, postsBefore.get(c)!) : 1);
        expect(second.output()).toContain('a delivery taken over was already in the channel');
        const end = await deliveries();
        expect(end.byState('done')).toEqual([...channels].sort());
        expect(end.rows.filter((d) => inFlight.includes(d.channel_id)).every((d) => d.attempts === 2)).toBe(true);
        expect(second.output()).not.toMatch(/"level":50/);
      } finally {
        where.cleanup();
      }
    },
    90_000,
  );

  it.each(ENGINES)(
    '%s: a process killed with SIGKILL in the middle of the edits of a corrected post, restarted, edits the rest and posts nothing again',
    async (engine) => {
      const where = await newStateLocation(engine);
      try {
        const channels = channelIds(engine === 'sqlite' ? '9630000000000000' : '9631000000000000', 20);
        const postId = engine === 'sqlite' ? '20990701' : '20990703';
        await subscribeAll(where, channels);
        const edits = (c: string) => discord.calls.filter((call) => call.method === 'PATCH' && call.path.startsWith(`/channels/${c}/messages/`)).length;
        const shows = (c: string) => (discord.channelMessages.get(c) ?? []).map((m) => (m.embeds as { description?: string }[])[0]?.description);

        const first = startBot(stateEnv(where));
        await until(() => first.output().includes(`"engine":"${engine}"`) && /"feed":"gameVersions".*feed initialised/.test(first.output()), 'the first poll');
        addPost(postId);
        await until(() => channels.every((c) => discord.channelMessages.get(c)?.length === 1), 'the delivery to every channel');
        // The post is corrected at the API; the process dies while its edits are on the wire.
        discord.setChannelDelay(250);
        r.dataset.posts.patchNotes.find((p) => p.id === postId)!.overview = 'New, corrected.';
        await until(() => channels.filter((c) => edits(c) > 0).length >= 5, 'the edits to start');
        first.proc.kill('SIGKILL');
        await new Promise((resolve) => first.proc.once('exit', resolve));
        const editedBefore = channels.filter((c) => shows(c)[0] === 'New, corrected.').length;
        expect(editedBefore).toBeLessThan(20);

        discord.setChannelDelay(0);
        const second = startBot(stateEnv(where));
        await until(() => channels.every((c) => shows(c)[0] === 'New, corrected.'), 'every message to show the correction');
        await afterPolls(2);
        // Every channel still has its one message, now corrected; nothing was posted again.
        for (const c of channels) {
          expect(shows(c), c).toEqual(['New, corrected.']);
          expect(posts(c), c).toBe(1);
        }
        // An edit is repeated at most once, for the edits on the wire at the kill; none after that.
        for (const c of channels) expect(edits(c), c).toBeLessThanOrEqual(2);
        const state = await openAt(where);
        try {
          const rows = await state.database.db
            .selectFrom('deliveries')
            .select(['channel_id', 'revision', 'edit_error'])
            .where('post_id', '=', postId)
            .execute();
          expect(rows.map((d) => d.revision)).toEqual(channels.map(() => 2));
          expect(rows.every((d) => d.edit_error === null)).toBe(true);
          expect(await state.feedPosts.pendingEdits('patchNotes')).toEqual([]);
        } finally {
          await state.close();
        }
        expect(second.output()).not.toMatch(/"level":50/);
      } finally {
        where.cleanup();
      }
    },
    90_000,
  );

  it.each(ENGINES)(
    '%s: a post found in quiet hours is held across a SIGKILL and delivered once when the window ends, not before',
    async (engine) => {
      const where = await newStateLocation(engine);
      const { file: clockFile, set: setClock, remove: removeClock } = clockOffsetFile();
      try {
        const channels = channelIds(engine === 'sqlite' ? '9640000000000000' : '9641000000000000', 3);
        const postId = engine === 'sqlite' ? '20990901' : '20990903';
        await subscribeAll(where, channels);
        // The first two channels are quiet 22:00–08:00 in Paris (21:00–07:00 UTC in March); the third is not.
        const state = await openAt(where);
        try {
          for (const i of [0, 1]) {
            await state.settings.update(`95${String(i).padStart(16, '0')}`, (s) => {
              s.feeds.patchNotes!.quiet = { start: 22 * 60, end: 8 * 60 };
              s.feeds.patchNotes!.timeZone = 'Europe/Paris';
            });
          }
        } finally {
          await state.close();
        }
        await setClock('2099-03-10T20:00:00Z');
        const env = { ...stateEnv(where), CLOCK_OFFSET_FILE: clockFile };
        const first = startBot(env);
        await until(() => first.output().includes(`"engine":"${engine}"`) && /"feed":"gameVersions".*feed initialised/.test(first.output()), 'the first poll');
        await setClock('2099-03-10T22:30:00Z');
        addPost(postId);
        await until(() => discord.channelMessages.get(channels[2]!)?.length === 1, 'the delivery to the channel without quiet hours');
        await afterPolls(2); // still quiet
        expect(posts(channels[0]!) + posts(channels[1]!)).toBe(0);
        first.proc.kill('SIGKILL');
        await new Promise((resolve) => first.proc.once('exit', resolve));

        // Restarted still inside the window: nothing yet.
        await setClock('2099-03-11T06:59:00Z');
        const second = startBot(env);
        await until(() => second.output().includes('logged in to Discord'), 'the restart');
        await afterPolls(2);
        expect(posts(channels[0]!) + posts(channels[1]!)).toBe(0);
        // The window ends (08:00 in Paris): the held post arrives, once, in each quiet channel.
        await setClock('2099-03-11T07:00:30Z');
        await until(() => channels.every((c) => discord.channelMessages.get(c)?.length === 1), 'the held post at the end of the quiet hours');
        await afterPolls(2);
        for (const c of channels) expect(discord.channelMessages.get(c), c).toHaveLength(1);
        for (const c of channels) expect((discord.channelMessages.get(c)![0]!.embeds as { title: string }[])[0]!.title).toBe(`Version ${postId}`);
        expect(second.output()).not.toMatch(/"level":50/);
      } finally {
        where.cleanup();
        removeClock();
      }
    },
    90_000,
  );

  it.each(ENGINES)(
    '%s: a daily digest of three posts, with a SIGKILL while they wait, is one message at its time',
    async (engine) => {
      const where = await newStateLocation(engine);
      const { file: clockFile, set: setClock, remove: removeClock } = clockOffsetFile();
      try {
        const channels = channelIds(engine === 'sqlite' ? '9650000000000000' : '9651000000000000', 2);
        const base = engine === 'sqlite' ? 2099061 : 2099062;
        await subscribeAll(where, channels);
        const state = await openAt(where);
        try {
          await state.settings.update(`95${String(0).padStart(16, '0')}`, (s) => {
            s.feeds.patchNotes!.digest = { every: 'daily', at: 18 * 60 };
            s.feeds.patchNotes!.digestPeriod = '2099-05-31';
          });
        } finally {
          await state.close();
        }
        const [digestChannel, eachChannel] = channels as [string, string];
        await setClock('2099-06-01T08:00:00Z');
        const env = { ...stateEnv(where), CLOCK_OFFSET_FILE: clockFile };
        const first = startBot(env);
        await until(() => first.output().includes(`"engine":"${engine}"`) && /"feed":"gameVersions".*feed initialised/.test(first.output()), 'the first poll');
        for (const [i, hour] of ['09', '10', '11'].entries()) {
          await setClock(`2099-06-01T${hour}:00:00Z`);
          addPost(`${base}${i}`);
          await until(() => discord.channelMessages.get(eachChannel)?.length === i + 1, `post ${i + 1} in the channel without a digest`);
        }
        expect(posts(digestChannel)).toBe(0);
        first.proc.kill('SIGKILL');
        await new Promise((resolve) => first.proc.once('exit', resolve));

        await setClock('2099-06-01T18:00:30Z');
        const second = startBot(env);
        await until(() => discord.channelMessages.get(digestChannel)?.length === 1, 'the digest');
        await afterPolls(2);
        expect(discord.channelMessages.get(digestChannel)).toHaveLength(1);
        const [digest] = discord.channelMessages.get(digestChannel)! as { embeds: { fields: { name: string }[] }[] }[];
        expect(digest!.embeds[0]!.fields.map((f) => f.name)).toEqual([0, 1, 2].map((i) => `Version ${base}${i}`));
        // Messages, not sends: a send marked done too late for the kill is sent again after the restart and answered from its nonce.
        expect(discord.channelMessages.get(eachChannel)).toHaveLength(3);
        expect(second.output()).not.toMatch(/"level":50/);
      } finally {
        where.cleanup();
        removeClock();
      }
    },
    90_000,
  );

  it.each(ENGINES)(
    '%s: hero alerts mention exactly the opted-in members whose heroes changed, once, across a SIGKILL in the middle of sending',
    async (engine) => {
      const where = await newStateLocation(engine);
      try {
        const alertChannels = channelIds(engine === 'sqlite' ? '9660000000000000' : '9661000000000000', 6);
        const postId = engine === 'sqlite' ? 'balance-20991101' : 'balance-20991103';
        // Six guilds, each with an alerts channel and three members: one whose mains include Hulk, one watching Hulk, one watching Storm;
        // and one member anywhere who asked for direct messages.
        const state = await openAt(where);
        const members = (g: number) => [1, 2, 3].map((m) => `7${String(g).padStart(2, '0')}${String(m).padStart(15, '0')}`);
        const dmUser = engine === 'sqlite' ? '799000000000000000' : '799000000000000001';
        try {
          const heroes = new Map(r.dataset.heroes.map((h) => [String(h.name).toLowerCase(), String(h.id)]));
          const hulk = heroes.get('hulk')!;
          const storm = heroes.get('storm')!;
          for (const [g, channel] of alertChannels.entries()) {
            const guildId = `96${String(g).padStart(16, '0')}`;
            await state.settings.update(guildId, (s) => void (s.alertsChannelId = channel));
            const [a, b, c] = members(g) as [string, string, string];
            await state.alerts.update(a, guildId, (m) => void (m.mains = true));
            await state.alerts.saveMains(a, { uid: '1', heroes: [hulk, '1', '2'], refreshedAt: Date.now() });
            await state.alerts.update(b, guildId, (m) => void (m.heroes = [hulk]));
            await state.alerts.update(c, guildId, (m) => void (m.heroes = [storm]));
          }
          await state.alerts.update(dmUser, '', (m) => void (m.heroes = [hulk]));
        } finally {
          await state.close();
        }
        const first = startBot(stateEnv(where));
        await until(() => first.output().includes(`"engine":"${engine}"`) && /"feed":"gameVersions".*feed initialised/.test(first.output()), 'the first poll');
        discord.setChannelDelay(300);
        r.dataset.posts.balances.unshift({
          id: postId,
          title: 'Balance Post: Hulk',
          date: '2099/11/01',
          overview: 'Hulk changes.',
          fullContent: 'Vanguard\n\nHulk\n- Gamma Burst: Damage increased from 70 to 75',
          imagePath: '/b.jpg',
        });
        await until(() => alertChannels.filter((c) => discord.channelMessages.get(c)?.length).length >= 2, 'the first alerts');
        first.proc.kill('SIGKILL');
        await new Promise((resolve) => first.proc.once('exit', resolve));
        discord.setChannelDelay(0);
        const second = startBot(stateEnv(where));
        await until(() => second.output().includes('logged in to Discord'), 'the restart');
        // Claims of sends in flight at the kill wait out their lease: age them, as five minutes would.
        const aged = await openAt(where);
        try {
          await aged.database.db
            .updateTable('deliveries')
            .set((eb) => ({ at: eb('at', '-', CLAIM_LEASE_MS) }))
            .where('feed', '=', 'alerts')
            .where('state', '=', 'claimed')
            .execute();
        } finally {
          await aged.close();
        }
        const dm = dmChannelId(dmUser);
        await until(
          () => alertChannels.every((c) => discord.channelMessages.get(c)?.length === 1) && discord.channelMessages.get(dm)?.length === 1,
          'every alert',
        );
        await afterPolls(2);
        for (const [g, c] of alertChannels.entries()) {
          const messages = discord.channelMessages.get(c)! as { content: string; allowed_mentions: { users?: string[] } }[];
          expect(messages, c).toHaveLength(1);
          const [a, b] = members(g);
          expect(messages[0]!.allowed_mentions.users).toEqual([a, b]);
          expect(messages[0]!.content).toContain(`<@${a}> <@${b}>`);
        }
        expect(discord.channelMessages.get(dm)).toHaveLength(1);
        expect(second.output()).not.toMatch(/"level":50/);
      } finally {
        where.cleanup();
        r.dataset.posts.balances.shift();
      }
    },
    90_000,
  );

  describe('two processes on one PostgreSQL database and one Redis', () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(() => redis?.stop());

    it('deliver each post once: one poller leads', async () => {
      const channels = channelIds('9620000000000000', 6);
      const where = await newStateLocation('postgres');
      await subscribeAll(where, channels);
      const a = startBot({ ...stateEnv(where), REDIS_URL: redis.url });
      const b = startBot({ ...stateEnv(where), REDIS_URL: redis.url });
      await until(() => a.output().includes('logged in to Discord') && b.output().includes('logged in to Discord'), 'both logins');
      for (const bot of [a, b]) expect(bot.output()).toContain('"engine":"postgres"');
      await until(() => /"feed":"gameVersions".*feed initialised/.test(a.output() + b.output()), 'the first poll');
      addPost('20990602');
      await until(
        () => channels.every((c) => discord.channelMessages.get(c)?.some((m) => (m.embeds as { title: string }[])[0]!.title === 'Version 20990602')),
        'the deliveries',
      );
      await afterPolls(3);
      for (const c of channels) {
        expect(discord.channelMessages.get(c)!.filter((m) => (m.embeds as { title: string }[])[0]!.title === 'Version 20990602')).toHaveLength(1);
        expect(posts(c)).toBe(1); // not even a deduplicated second send: only the leader posts
      }
      const initialised = (a.output() + b.output()).match(/feed initialised/g)!.length;
      expect(initialised).toBe(4); // four feeds, initialised once, by one process
      where.cleanup();
    }, 90_000);
  });
});

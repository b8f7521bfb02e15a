/**
 * The fault check: "the database and Redis are killed and restarted while the bot serves
 * interactions and the feed runs. Every interaction is acknowledged within 3 s, nothing that was
 * confirmed is lost, and feeds catch up."
 *
 * The bot runs as a real process (`src/index.ts`) with its state in a PostgreSQL server of this file's
 * own (DATABASE_URL), its cache, feed leadership and settings sync on a Redis of its own (REDIS_URL),
 * its in-process replica, and FEED_POLL_SECONDS=1, against the fake Discord. A stream of interactions
 * (/maps, /leaderboard, /config platform, /config private-answers, /link) runs the whole time; midway
 * PostgreSQL and Redis are killed with SIGKILL, the stream goes on, then both are restarted.
 *
 * How soon each acknowledgement arrives depends on the machine's load: the runtime's deadline for it is
 * tested on an injected clock (test/discord/respond.test.ts), and here the times are printed as figures.
 * This test checks what the runtime decides whatever the load: one acknowledgement per interaction, the
 * answer itself or a deferral, never a confirmation the dead store could not have given.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/render/strings.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { openAt } from '../helpers/state.js';
import {
  ADMIN_PERMISSIONS,
  APP_ID,
  commandInteraction,
  FEED_CHANNEL_IDS,
  GUILD_ID,
  startFakeDiscord,
  type FakeDiscord,
  type RestCall,
} from './fake-discord.js';
import { BOT_ARGS } from '../helpers/bot-process.js';
import { pollUntil } from '../helpers/until.js';

/** Interaction response types (Discord: "Receiving and Responding"): the answer itself, or the "thinking" placeholder. */
const REPLY = 4;
const DEFER = 5;
/** One interaction every this many ms (the stream's pace: part of the scenario, not a wait). */
const STREAM_EVERY_MS = 200;
/** How many interactions, at least, each phase (before, during and after the outage) has answered before the test moves on. */
const PER_PHASE = 10;
const ADMIN = '200000000000000001';
const UID = '1403392756';
/** The error embeds' colour (src/discord/router.ts). */
const ERROR_COLOUR = 0xed4245;

let discord: FakeDiscord;
let pg: PostgresServer;
let redis: RedisServer;
let databaseUrl: string;
let dataDir: string;
let bot: ChildProcess;
let output = '';
let replicaUrl = '';

const until = <T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> =>
  pollUntil(probe, what, { timeoutMs, context: () => output.slice(-3000) });

beforeAll(async () => {
  [discord, pg, redis] = await Promise.all([startFakeDiscord(), startPostgres(), startRedis()]);
  databaseUrl = await pg.createDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'rivals-faults-'));
  bot = spawn(process.execPath, [...BOT_ARGS], {
    env: {
      PATH: process.env.PATH!,
      DISCORD_TOKEN: 'faults-token',
      DISCORD_API_URL: discord.apiUrl,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      FEED_POLL_SECONDS: '1',
      // The replica is local: a rate far above what the stream and the 1 s polls ask, so that answers wait
      // on nothing but the store. (At the default 60 a minute, polls every second alone fill the window,
      // and with the cache on Redis down every command goes upstream: answers then queue for minutes.)
      RIVALS_API_RPM: '100000',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  bot.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  bot.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  await until(() => output.includes('"engine":"postgres"'), 'the state store');
  replicaUrl = await until(() => output.match(/"replica":"(http:\/\/127\.0\.0\.1:\d+)"/)?.[1], 'the replica URL');
  await until(() => output.includes('logged in to Discord'), 'login');
  await until(() => /"feed":"gameVersions".*feed initialised/.test(output), 'the first poll');
}, 90_000);

afterAll(async () => {
  if (bot && bot.exitCode === null && bot.signalCode === null) {
    const exited = new Promise((r) => bot.once('exit', r));
    bot.kill('SIGKILL');
    await exited;
  }
  await Promise.all([discord?.close(), pg?.stop(), redis?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

type Kind = 'maps' | 'leaderboard' | 'platform' | 'private-answers' | 'link';
const KINDS: Kind[] = ['maps', 'platform', 'link', 'leaderboard', 'private-answers'];
/** Commands whose answer needs the database (a write): during the outage they must say so. */
const NEEDS_STATE: Kind[] = ['platform', 'private-answers', 'link'];
const PLATFORMS = ['ps', 'xbox', 'pc'] as const;

interface Sent {
  n: number;
  kind: Kind;
  id: string;
  token: string;
  /** ms since the fake started, as the fake sent it. */
  sentAt: number;
  guildId?: string;
  userId?: string;
  value?: string | boolean;
}

/** An interaction from another server than the fake's own: each /config change gets a guild of its own, so each can be checked. */
function inGuild<T extends { guild_id: string; channel: Record<string, unknown>; authorizing_integration_owners: Record<string, string> }>(
  i: T,
  guildId: string,
): T {
  return { ...i, guild_id: guildId, channel: { ...i.channel, guild_id: guildId }, authorizing_integration_owners: { '0': guildId } };
}

function send(n: number): Sent {
  const kind = KINDS[n % KINDS.length]!;
  const guildId = `97${String(n).padStart(16, '0')}`;
  const userId = `98${String(n).padStart(16, '0')}`;
  let interaction: ReturnType<typeof commandInteraction>;
  let extra: Partial<Sent> = {};
  switch (kind) {
    case 'maps':
      interaction = commandInteraction(ADMIN, 'maps');
      break;
    case 'leaderboard':
      // No platform: the server's default, which needs the settings (PC when the store does not answer).
      interaction = inGuild(commandInteraction(ADMIN, 'leaderboard', { hero: 'storm' }), guildId);
      break;
    case 'platform': {
      const platform = PLATFORMS[n % PLATFORMS.length]!;
      interaction = inGuild(commandInteraction(ADMIN, 'config', { platform }, { subcommand: 'platform', permissions: ADMIN_PERMISSIONS }), guildId);
      extra = { guildId, value: platform };
      break;
    }
    case 'private-answers':
      interaction = inGuild(commandInteraction(ADMIN, 'config', { enabled: true }, { subcommand: 'private-answers', permissions: ADMIN_PERMISSIONS }), guildId);
      extra = { guildId, value: true };
      break;
    case 'link':
      interaction = commandInteraction(userId, 'link', { player: UID });
      extra = { userId };
      break;
  }
  const sentAt = discord.dispatchInteraction(interaction);
  return { n, kind, id: interaction.id, token: interaction.token, sentAt, ...extra };
}

/** Every acknowledgement of `s` the fake received. */
const callbacksOf = (s: Sent): RestCall[] => discord.calls.filter((c) => c.method === 'POST' && c.path === `/interactions/${s.id}/${s.token}/callback`);
const callbackOf = (s: Sent): RestCall | undefined => callbacksOf(s)[0];
const typeOf = (c: RestCall) => (c.body as { type: number }).type;

/** The answer the member sees, as JSON: the reply, or after a deferral the edit or the follow-up. */
function answerOf(s: Sent): string | undefined {
  const callback = callbackOf(s);
  if (!callback) return undefined;
  const body = callback.body as { type: number; data?: unknown };
  if (body.type === 4) return JSON.stringify(body.data);
  const later = discord.calls.find(
    (c) =>
      (c.method === 'PATCH' && c.path === `/webhooks/${APP_ID}/${s.token}/messages/@original`) ||
      (c.method === 'POST' && c.path === `/webhooks/${APP_ID}/${s.token}`),
  );
  return later && JSON.stringify(later.body);
}

/** min/median/max of the times from sending `list` to its acknowledgement, ms by the fake's clock. */
function spread(list: Sent[]): string {
  const ms = list.map((s) => callbackOf(s)!.at - s.sentAt).sort((a, b) => a - b);
  if (ms.length === 0) return 'none';
  return `min ${Math.round(ms[0]!)} / median ${Math.round(ms[Math.floor(ms.length / 2)]!)} / max ${Math.round(ms.at(-1)!)} (${ms.length})`;
}

const unavailable = (answer: string | undefined) => answer?.includes(t.storeUnavailable()) ?? false;
const isError = (answer: string | undefined) => answer?.includes(`"color":${ERROR_COLOUR}`) ?? false;
/** A /config answer that confirms the change: the settings embed, not an error. */
const confirmed = (s: Sent) => {
  const answer = answerOf(s);
  if (!answer || isError(answer)) return false;
  return s.kind === 'link' ? answer.includes(`UID ${UID}`) : answer.includes('Server settings');
};

function addPost(id: string, title: string) {
  return fetch(`${replicaUrl}/__replica/posts/patchNotes`, {
    method: 'POST',
    body: JSON.stringify({ id, title, date: '2099/12/31', overview: 'New.', fullContent: 'Text.', imagePath: '/p.jpg' }),
  });
}
const feedTitles = () => (discord.channelMessages.get(FEED_CHANNEL_IDS[0]) ?? []).map((m) => (m.embeds as { title: string }[])[0]!.title);

describe('PostgreSQL and Redis killed and restarted under load', () => {
  it('acknowledges every interaction once, loses nothing confirmed, says the store is unavailable only where it is needed, and the feed catches up', async () => {
    // A feed channel, confirmed before the outage.
    const feed = commandInteraction(
      ADMIN,
      'config',
      { type: 'patchNotes', channel: { channel: FEED_CHANNEL_IDS[0] } },
      { subcommand: 'feed', permissions: ADMIN_PERMISSIONS },
    );
    discord.dispatchInteraction(feed);
    const feedAnswer = await discord.waitFor((c) => c.method === 'POST' && c.path === `/interactions/${feed.id}/${feed.token}/callback`);
    expect(JSON.stringify(feedAnswer.body)).toContain('Patch notes will be posted in');

    // The stream of interactions, for the whole test.
    const sent: Sent[] = [];
    let streaming = true;
    const stream = (async () => {
      for (let n = 0; streaming; n++) {
        sent.push(send(n));
        await new Promise((r) => setTimeout(r, STREAM_EVERY_MS));
      }
    })();
    /** The interactions sent from index `from` on that have their final answer. */
    const answered = (from: number) => sent.slice(from).filter((s) => answerOf(s) !== undefined);
    /** Whether the bot logged a failed feed poll after `offset` in its output. */
    const pollFailedSince = (offset: number) => /"msg":"(feed poll failed|could not poll a feed)"/.test(output.slice(offset));

    // Healthy: the phase "before" is what was sent, and answered, before the kill.
    await until(() => answered(0).length >= PER_PHASE, `${PER_PHASE} answers before the outage`);
    const before = answered(0);
    const killedFrom = sent.length;
    await Promise.all([pg.kill(), redis.kill()]);
    const outageFrom = sent.length;
    const outageOutput = output.length;
    // A post published during the outage: found once the feed can run again.
    expect((await addPost('20991201', 'Posted during the outage')).status).toBe(201);
    // The outage lasts until the bot has answered enough interactions sent during it, and a feed poll has failed on it.
    await until(
      () => answered(outageFrom).length >= PER_PHASE && pollFailedSince(outageOutput),
      `${PER_PHASE} answers and a failed poll during the outage`,
      60_000,
    );
    // The phase "during": sent once both were down, and answered before either came back (work still under way at the restart may outlive the outage).
    const during = answered(outageFrom);
    await Promise.all([pg.restart(), redis.restart()]);
    expect((await addPost('20991202', 'Posted after the restart')).status).toBe(201);

    // Both posts reach the channel once the store and Redis are back.
    await until(() => feedTitles().length >= 2, 'the feed to catch up', 40_000);
    // The phase "after": sent once the feed has caught up (the store and Redis are back). Then a third post, so that
    // the polls after the catch-up, which would post something twice if anything were, have run.
    const afterFrom = sent.length;
    expect((await addPost('20991203', 'Posted once the feed caught up')).status).toBe(201);
    await until(() => feedTitles().length >= 3 && answered(afterFrom).length >= PER_PHASE, `the third post and ${PER_PHASE} answers after the restart`, 40_000);
    streaming = false;
    await stream;
    await until(() => sent.every((s) => answerOf(s) !== undefined), 'every answer', 20_000).catch((err: unknown) => {
      const missing = sent
        .filter((s) => answerOf(s) === undefined)
        .map((s) => ({
          n: s.n,
          kind: s.kind,
          callback: callbackOf(s)?.body,
          later: discord.calls.filter((c) => c.path.includes(s.token)).map((c) => `${c.method} ${c.path}`),
        }));
      throw new Error(`${JSON.stringify(missing, null, 1)}\n${(err as Error).message}`);
    });
    const after = sent.slice(afterFrom);

    // The feed: each post exactly once, the outage's first.
    expect(feedTitles()).toEqual(['Posted during the outage', 'Posted after the restart', 'Posted once the feed caught up']);

    // Every interaction acknowledged exactly once: by its answer (a reply), or by a deferral its answer followed.
    for (const s of sent) {
      const types = callbacksOf(s).map(typeOf);
      expect(types, `${s.kind} #${s.n}: the types of its acknowledgements`).toHaveLength(1);
      expect([REPLY, DEFER], `${s.kind} #${s.n}`).toContain(types[0]);
    }
    // During the outage, no acknowledgement of a change is a confirmation: a reply is the "unavailable" answer itself.
    const changesDuring = during.filter((s) => NEEDS_STATE.includes(s.kind));
    for (const s of changesDuring.filter((c) => typeOf(callbackOf(c)!) === REPLY))
      expect(unavailable(JSON.stringify((callbackOf(s)!.body as { data?: unknown }).data)), `${s.kind} #${s.n} during`).toBe(true);

    expect(before.length).toBeGreaterThanOrEqual(PER_PHASE);
    expect(during.length).toBeGreaterThanOrEqual(PER_PHASE);
    expect(during.filter((s) => NEEDS_STATE.includes(s.kind)).length).toBeGreaterThan(0);
    expect(after.length).toBeGreaterThanOrEqual(PER_PHASE);

    // Healthy, before the outage: every answer is a normal one.
    for (const s of before) expect(isError(answerOf(s)), `${s.kind} #${s.n} before: ${answerOf(s)}`).toBe(false);
    // During the outage: what needs the database says it is unavailable; what needs none answers normally.
    for (const s of during) {
      const answer = answerOf(s);
      if (NEEDS_STATE.includes(s.kind)) expect(unavailable(answer), `${s.kind} #${s.n} during: ${answer}`).toBe(true);
      else expect(isError(answer), `${s.kind} #${s.n} during: ${answer}`).toBe(false);
    }
    // After the restart, everything answers normally again.
    for (const s of after) expect(isError(answerOf(s)), `${s.kind} #${s.n} after: ${answerOf(s)}`).toBe(false);

    // Nothing confirmed is lost: every change that got a success answer is in the database.
    const changes = sent.filter((s) => NEEDS_STATE.includes(s.kind));
    const ok = changes.filter(confirmed);
    expect(ok.length).toBeGreaterThanOrEqual(before.filter((s) => NEEDS_STATE.includes(s.kind)).length);
    const state = await openAt({ engine: 'postgres', dataDir, databaseUrl });
    try {
      const db = state.database.db;
      const guilds = new Map((await db.selectFrom('guild_settings').selectAll().execute()).map((g) => [g.guild_id, g]));
      const links = new Set((await db.selectFrom('account_links').select(['user_id', 'uid']).execute()).map((l) => `${l.user_id}:${l.uid}`));
      for (const s of ok) {
        if (s.kind === 'platform') expect(guilds.get(s.guildId!)?.leaderboard_platform, `#${s.n}`).toBe(s.value);
        if (s.kind === 'private-answers') expect(guilds.get(s.guildId!)?.ephemeral_by_default, `#${s.n}`).toBe(1);
        if (s.kind === 'link') expect(links.has(`${s.userId}:${UID}`), `#${s.n}`).toBe(true);
      }
      // The feed channel confirmed before the outage is still set, and records the last post.
      const subscription = await db
        .selectFrom('feed_subscriptions')
        .selectAll()
        .where('guild_id', '=', GUILD_ID)
        .where('feed', '=', 'patchNotes')
        .executeTakeFirst();
      expect(subscription).toMatchObject({ channel_id: FEED_CHANNEL_IDS[0], broken_at: null, last_post_id: '20991203' });
    } finally {
      await state.close();
    }

    expect(bot.exitCode).toBeNull(); // it served throughout
    const deferredDuring = changesDuring.filter((s) => typeOf(callbackOf(s)!) === DEFER).length;
    console.info(
      `${sent.length} interactions (${before.length} before, ${during.length} during, ${after.length} after the outage, ${killedFrom} sent before the kill); ${ok.length}/${changes.length} changes confirmed; ` +
        `during the outage ${changesDuring.length - deferredDuring} changes answered at once, ${deferredDuring} deferred`,
    );
    // Figures, not assertions: how long after being sent each was acknowledged, by the fake's clock.
    console.log(`acknowledgement ms: all ${spread(sent)}; during the outage ${spread(during)}`);
  }, 150_000);

  it('shuts down on SIGTERM while PostgreSQL and Redis are down', async () => {
    const outageOutput = output.length;
    await Promise.all([pg.kill(), redis.kill()]);
    // Into the outage: the bot's feed poll has run into it.
    await until(() => /"msg":"(feed poll failed|could not poll a feed)"/.test(output.slice(outageOutput)), 'a failed poll during the outage');
    const exited = new Promise<number | null>((resolve) => bot.once('exit', (code) => resolve(code)));
    bot.kill('SIGTERM');
    // 15 s is a safety net for "exits rather than hangs", not a measure of the stop.
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), 15_000)))]);
    clearTimeout(timer);
    expect(code, output.slice(-3000)).toBe(0);
    expect(output).toContain('"msg":"stopped"');
  }, 40_000);
});

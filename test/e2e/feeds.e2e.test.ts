/**
 * The patch-note feed end to end, on both engines: the bot as a real process (SQLite under a
 * temporary DATA_DIR, or a fresh PostgreSQL database at DATABASE_URL; its in-process replica;
 * FEED_POLL_SECONDS=1) against the fake Discord. An admin sets feed channels with /config; a new post
 * added to the replica is delivered to every configured channel exactly once with the role ping; a
 * post corrected at the API is edited in place, never posted again; a channel that answers Missing
 * Permissions is marked broken and reported by /config status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterPolls as afterPollsAt, patchNoteReads } from '../helpers/polls.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER } from '../helpers/bot.js';
import { ENGINES, newStateLocation } from '../helpers/state.js';
import { ADMIN_PERMISSIONS, commandInteraction, FEED_CHANNEL_IDS, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { BOT_ARGS } from '../helpers/bot-process.js';
import { pollUntil } from '../helpers/until.js';
import { escapeText } from '../../src/render/limits.js';

const ROLE = '940000000000000007';
/** `text` as it stands inside the JSON of a request body (its backslashes and quotes escaped). */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

describe.each(ENGINES)('patch-note feed on %s', (engine) => {
  let discord: FakeDiscord;
  let bot: ChildProcess;
  let output = '';
  let replicaUrl = '';
  let cleanup: () => void = () => undefined;

  const until = <T>(probe: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> =>
    pollUntil(probe, what, { timeoutMs, context: () => output.slice(-2000) });

  /** Waits until `n` more feed polls of the bot have ended (see test/helpers/polls.ts). */
  async function afterPolls(n: number): Promise<void> {
    const reads = async () => patchNoteReads(((await (await fetch(`${replicaUrl}/__replica/stats`)).json()) as { byPath: Record<string, number> }).byPath);
    await afterPollsAt(reads, n, () => output.slice(-2000));
  }

  async function config(subcommand: string, options: Parameters<typeof commandInteraction>[2]) {
    const i = commandInteraction(MEMBER.userId, 'config', options, { subcommand, permissions: ADMIN_PERMISSIONS });
    discord.dispatchInteraction(i);
    const call = await discord.waitFor((c) => c.method === 'POST' && c.path.startsWith(`/interactions/${i.id}/`));
    return JSON.stringify(call.body);
  }

  beforeAll(async () => {
    discord = await startFakeDiscord();
    const where = await newStateLocation(engine);
    cleanup = where.cleanup;
    bot = spawn(process.execPath, [...BOT_ARGS], {
      env: {
        PATH: process.env.PATH!,
        DISCORD_TOKEN: 'feed-token',
        DISCORD_API_URL: discord.apiUrl,
        DATA_DIR: where.dataDir,
        ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}),
        FEED_POLL_SECONDS: '1',
        // Polls every second are 240 requests a minute: far above the default rate, which is not what this file tests.
        RIVALS_API_RPM: '100000',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bot.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    bot.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    await until(() => output.includes(`"engine":"${engine}"`) && output.includes('state store open'), 'the state store');
    replicaUrl = await until(() => output.match(/"replica":"(http:\/\/127\.0\.0\.1:\d+)"/)?.[1], 'the replica URL');
    await until(() => output.includes('logged in to Discord'), 'login');
    // The first poll records what exists.
    await until(() => output.includes('"feed":"patchNotes"') && output.includes('feed initialised'), 'the first poll');
  }, 40_000);

  afterAll(async () => {
    if (bot.exitCode === null) {
      const exited = new Promise((r) => bot.once('exit', r));
      bot.kill('SIGTERM');
      await exited;
    }
    await discord.close();
    cleanup();
  });

  it('delivers a new post once to every configured channel, pinging the role', async () => {
    expect(await config('feed', { type: 'patchNotes', channel: { channel: FEED_CHANNEL_IDS[0] }, role: { role: ROLE } })).toContain(
      'Patch notes will be posted in',
    );
    // A second server would be the same; a second feed channel here stands for it.
    expect(await config('feed', { type: 'balances', channel: { channel: FEED_CHANNEL_IDS[1] } })).toContain('Balance posts will be posted in');
    expect(discord.channelMessages.size).toBe(0); // no flood of history

    const post = {
      id: '20991231',
      title: 'Version 20991231 Patch Notes: the future',
      date: '2099/12/31',
      overview: 'Everything changes.',
      fullContent: 'All of it.',
      imagePath: '/patch.jpg',
    };
    expect((await fetch(`${replicaUrl}/__replica/posts/patchNotes`, { method: 'POST', body: JSON.stringify(post) })).status).toBe(201);
    const delivered = await until(() => discord.channelMessages.get(FEED_CHANNEL_IDS[0])?.[0], 'the delivery');
    expect(delivered).toMatchObject({ content: `<@&${ROLE}>`, allowed_mentions: { parse: [], roles: [ROLE] }, enforce_nonce: true });
    expect((delivered.embeds as { title: string }[])[0]!.title).toBe(post.title);

    // Three more polls: still exactly one message, and nothing in the balance channel.
    await afterPolls(3);
    expect(discord.channelMessages.get(FEED_CHANNEL_IDS[0])).toHaveLength(1);
    expect(discord.channelMessages.get(FEED_CHANNEL_IDS[1])).toBeUndefined();
    // The delivery is recorded on the subscription: /config status reads it from the store, and names it by its title.
    expect(await config('status', {})).toContain(inJson('Last post <t:'));
    expect(await config('status', {})).toContain(inJson(`: “${escapeText(post.title)}”`));
  }, 30_000);

  it('edits a post corrected at the API in place (PATCH), never posts it again, and /config status shows the edit', async () => {
    const channel = FEED_CHANNEL_IDS[0];
    const [delivered] = discord.channelMessages.get(channel)!;
    const res = await fetch(`${replicaUrl}/__replica/posts/patchNotes/20991231`, {
      method: 'PATCH',
      body: JSON.stringify({ overview: 'Everything changes, corrected.' }),
    });
    expect(res.status).toBe(200);
    const edit = await discord.waitFor((c) => c.method === 'PATCH' && c.path === `/channels/${channel}/messages/${String(delivered!.id)}`, 10_000);
    expect((edit.body as { embeds: { description: string }[] }).embeds[0]!.description).toBe('Everything changes, corrected.');
    expect(edit.body).not.toHaveProperty('content');
    expect((edit.body as { allowed_mentions: unknown }).allowed_mentions).toEqual({ parse: [] });
    await afterPolls(2);
    expect(discord.channelMessages.get(channel)).toHaveLength(1);
    expect(discord.calls.filter((c) => c.method === 'PATCH' && c.path.startsWith(`/channels/${channel}/messages/`))).toHaveLength(1);
    expect(discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${channel}/messages`)).toHaveLength(1);
    // Named by its title, as the feed posted it.
    expect(await config('status', {})).toContain(inJson(`✏️ Last correction: “${escapeText('Version 20991231 Patch Notes: the future')}”, edited in place`));
  }, 30_000);

  it('marks a channel that answers Missing Permissions broken and reports it in /config status', async () => {
    discord.failChannel(FEED_CHANNEL_IDS[1], { status: 403, code: 50013, message: 'Missing Permissions' });
    const balance = {
      id: 'balance-20991231',
      title: 'Balance Post: the future',
      date: '2099/12/31',
      overview: 'Numbers.',
      fullContent: 'More numbers.',
      imagePath: '/b.jpg',
    };
    await fetch(`${replicaUrl}/__replica/posts/balances`, { method: 'POST', body: JSON.stringify(balance) });
    await until(() => output.includes('feed subscription marked broken'), 'the broken mark');
    const status = await config('status', {});
    expect(status).toContain('⚠️ Missing Permissions');
    expect(status).toContain(`Give the bot View Channel, Send Messages and Embed Links in <#${FEED_CHANNEL_IDS[1]}>`);
    const attempts = discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${FEED_CHANNEL_IDS[1]}/messages`).length;
    await afterPolls(2);
    expect(discord.calls.filter((c) => c.method === 'POST' && c.path === `/channels/${FEED_CHANNEL_IDS[1]}/messages`).length).toBe(attempts);
  }, 30_000);
});

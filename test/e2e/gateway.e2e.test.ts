/**
 * The process policy on the gateway (docs/operations.md, "Process policy"), with the real entry point
 * (`node dist/index.js`, the production build `npm start` runs) against the fake Discord:
 * - a close Discord's table marks not reconnectable (4004, 4013, 4014), answered to the RESUME or
 *   IDENTIFY that follows a resumable close after READY (or to the first IDENTIFY), stops the process
 *   with one fatal line naming the code and what to do, and exit code 78;
 * - resumable closes (4000, 1001) resume, 4009 ends in a new IDENTIFY, and the next interaction is
 *   answered; an interaction sent while disconnected is replayed on RESUME and answered;
 * - a malformed INTERACTION_CREATE that makes discord.js throw is logged as an unhandled rejection
 *   naming the dispatch, and the bot keeps answering.
 * Source of the close codes: Discord developer documentation, "Opcodes and Status Codes" >
 * "Gateway Close Event Codes".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_GATEWAY_REFUSED } from '../../src/core/process-policy.js';
import { MEMBER } from '../helpers/bot.js';
import { APP_ID, commandInteraction, GUILD_ID, startFakeDiscord, type FakeDiscord } from './fake-discord.js';
import { BOT_ARGS } from '../helpers/bot-process.js';
import { pollUntil } from '../helpers/until.js';

const TOKEN = 'gateway-token-7Qx2mZ9pL4';
const GATEWAY_IDENTIFY = 2;
const GATEWAY_RESUME = 6;

interface Bot {
  proc: ChildProcess;
  output: () => string;
  /** The JSON log lines written so far. */
  lines: () => Record<string, unknown>[];
  exited: Promise<number | null>;
}

const dirs: string[] = [];
const bots: Bot[] = [];

/** Starts the bot as `npm start` does, on its in-process API replica (no RIVALS_API_KEY) and a fresh DATA_DIR. */
function startBot(discord: FakeDiscord): Bot {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-gateway-'));
  dirs.push(dataDir);
  let output = '';
  const proc = spawn(process.execPath, [...BOT_ARGS], {
    env: {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? '/tmp',
      DISCORD_TOKEN: TOKEN,
      DISCORD_CLIENT_ID: APP_ID,
      DISCORD_API_URL: discord.apiUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const lines = () =>
    output.split('\n').flatMap((line) => {
      try {
        const parsed: unknown = JSON.parse(line);
        return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : []; // eslint-disable-line @typescript-eslint/no-unnecessary-type-assertion -- the narrowed object has no index signature
      } catch {
        return [];
      }
    });
  const bot = { proc, output: () => output, lines, exited };
  bots.push(bot);
  return bot;
}

const until = <T>(probe: () => T | undefined | false, what: string, bot: Bot, timeoutMs = 20_000): Promise<T> =>
  pollUntil(probe, what, { timeoutMs, context: () => bot.output().slice(-3000) });

// Starting takes about a second on a quiet 2-core machine, much longer under a parallel test run.
const loggedIn = (bot: Bot) => until(() => bot.output().includes('logged in to Discord'), 'the login', bot, 45_000);

/** Resolves with the exit code, or 'still running' after `ms`. */
const exitWithin = (bot: Bot, ms: number) => Promise.race([bot.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), ms))]);

const callbackFor = (discord: FakeDiscord, i: { id: string; token: string }, timeoutMs = 10_000) =>
  discord.waitFor((c) => c.method === 'POST' && c.path === `/interactions/${i.id}/${i.token}/callback`, timeoutMs);

afterEach(async () => {
  for (const bot of bots.splice(0)) {
    if (bot.proc.exitCode === null && bot.proc.signalCode === null) {
      bot.proc.kill('SIGKILL');
      await bot.exited;
    }
  }
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a close Discord says is not reconnectable stops the process with one clear line and exit 78', () => {
  const cases = [
    // [fatal code, resumable close first, the attempt answered with the fatal code, what the line says to do]
    { fatal: 4004, first: 4000, answer: 'resume', says: /authentication failed\): the DISCORD_TOKEN was rejected .*Developer Portal.*DISCORD_TOKEN/ },
    { fatal: 4013, first: 4009, answer: 'identify', says: /invalid intents\): .*src\/discord\/client\.ts/ },
    { fatal: 4014, first: 4007, answer: 'identify', says: /disallowed intents\): .*Privileged Gateway Intents.*Developer Portal/ },
  ] as const;

  it.each(cases)(
    '$fatal on the $answer after a $first close',
    async ({ fatal, first, answer, says }) => {
      const discord = await startFakeDiscord();
      try {
        const bot = startBot(discord);
        await loggedIn(bot);
        discord.rejectNext(fatal, [answer]);
        discord.closeGateway(first);

        // Bounded: the close needs up to one identify throttle (5 s) to reach the fatal code, then a bounded stop.
        // The 20 s are a safety net: a process that hangs instead of exiting is 'still running' by then.
        const code = await exitWithin(bot, 20_000);
        expect(code, bot.output().slice(-3000)).toBe(EXIT_GATEWAY_REFUSED);
        // The fake answered the attempt discord.js made, with the fatal code, and discord.js tried nothing after it.
        const fatalClose = discord.gatewayCloses.find((c) => c.code === fatal)!;
        expect(fatalClose.by).toBe('fake');
        const attempts = discord.gatewayOps.filter((o) => o.op === GATEWAY_IDENTIFY || o.op === GATEWAY_RESUME);
        expect(attempts.at(-1)!.op).toBe(answer === 'resume' ? GATEWAY_RESUME : GATEWAY_IDENTIFY);
        expect(attempts.filter((o) => o.at > fatalClose.at)).toEqual([]);

        const fatalLines = bot.lines().filter((l) => l.level === 60);
        expect(fatalLines, bot.output().slice(-3000)).toHaveLength(1);
        const line = fatalLines[0]!;
        expect(line.msg).toMatch(new RegExp(`^Discord closed the gateway with ${fatal} \\(`));
        expect(line.msg).toMatch(says);
        expect(line.msg).toMatch(/Exiting with code 78\.$/);
        expect(line).toMatchObject({ closeCode: fatal, exitCode: 78 });
        // The stop was the graceful one, and nothing else said "error" about the same close.
        expect(bot.lines().find((l) => l.msg === 'stopped')).toMatchObject({ exitCode: 78 });
        expect(bot.lines().filter((l) => l.level === 50)).toEqual([]);
        expect(bot.output()).not.toContain(TOKEN);
      } finally {
        await discord.close();
      }
    },
    90_000,
  );

  it('4004 on the first IDENTIFY (during login): the same single line, not a second "could not log in"', async () => {
    const discord = await startFakeDiscord();
    try {
      discord.rejectNext(4004, ['identify']);
      const bot = startBot(discord);
      const code = await exitWithin(bot, 60_000);
      expect(code, bot.output().slice(-3000)).toBe(EXIT_GATEWAY_REFUSED);
      const fatalLines = bot.lines().filter((l) => l.level === 60);
      expect(fatalLines).toHaveLength(1);
      expect(fatalLines[0]!.msg).toMatch(/^Discord closed the gateway with 4004 \(authentication failed\): the DISCORD_TOKEN was rejected/);
      expect(bot.output()).not.toContain('could not log in');
      expect(bot.output()).not.toContain(TOKEN);
    } finally {
      await discord.close();
    }
  }, 90_000);
});

describe('resumable closes are left to discord.js, and the bot keeps answering', () => {
  let discord: FakeDiscord;
  let bot: Bot;

  beforeAll(async () => {
    discord = await startFakeDiscord();
    bot = startBot(discord);
    bots.splice(bots.indexOf(bot), 1); // one process for this block's tests, stopped in afterAll
    await loggedIn(bot);
  }, 60_000);
  afterAll(async () => {
    if (bot.proc.exitCode === null) {
      bot.proc.kill('SIGTERM');
      expect(await exitWithin(bot, 20_000)).toBe(0);
    }
    expect(bot.output()).not.toContain(TOKEN);
    await discord.close();
  }, 30_000);

  const cases = [
    { code: 4000, how: 'resumed', ops: [GATEWAY_RESUME], line: 'resumed the Discord gateway session' },
    { code: 1001, how: 'resumed', ops: [GATEWAY_RESUME], line: 'resumed the Discord gateway session' },
    // discord.js tries a RESUME; the session timed out, so the fake (as Discord) answers INVALID_SESSION and it identifies.
    {
      code: 4009,
      how: 'identified',
      ops: [GATEWAY_RESUME, GATEWAY_IDENTIFY],
      line: 'started a new Discord gateway session (dispatches sent while disconnected are not replayed)',
    },
  ] as const;

  it.each(cases)(
    '$code: reconnects ($how) and answers the next interaction',
    async ({ code, how, ops, line }) => {
      const opsBefore = discord.gatewayOps.length;
      const session = discord.nextSession(20_000);
      discord.closeGateway(code);
      expect(await session).toBe(how);
      expect(
        discord.gatewayOps
          .slice(opsBefore)
          .map((o) => o.op)
          .filter((op) => op !== 1),
      ).toEqual(ops);

      const i = commandInteraction(MEMBER.userId, 'maps');
      discord.dispatchInteraction(i);
      const callback = await callbackFor(discord, i);
      expect((callback.body as { type: number }).type).toBeGreaterThan(0);
      expect(bot.proc.exitCode).toBeNull();

      await until(() => bot.lines().some((l) => l.msg === line), `"${line}"`, bot, 10_000);
      const closeLine = bot.lines().find((l) => l.closeCode === code);
      expect(closeLine).toMatchObject({
        level: 40,
        msg: expect.stringMatching(new RegExp(`^the Discord gateway connection closed with ${code} \\(.+\\): reconnecting$`)),
      });
      expect(bot.lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
    },
    30_000,
  );

  it('replays an interaction sent while disconnected on RESUME, and answers it', async () => {
    const session = discord.nextSession(20_000);
    discord.closeGateway(4000);
    const i = commandInteraction(MEMBER.userId, 'maps');
    discord.dispatch('INTERACTION_CREATE', i); // kept by the fake for the replay, as Discord does
    expect(await session).toBe('resumed');
    await callbackFor(discord, i);
    // discord.js counts RESUMED itself among the replayed dispatches.
    const resumes = () => bot.lines().filter((l) => l.msg === 'resumed the Discord gateway session');
    await until(() => (resumes().at(-1)?.replayedEvents as number) >= 2, 'a resume that replayed the interaction', bot, 10_000);
  }, 30_000);

  it('an INTERACTION_CREATE with no member and no user is logged as not understood, left unanswered, and the next one is answered', async () => {
    // The bot's own reader refuses it; discord.js, building its own Interaction object from it, may throw
    // too, which the process policy logs (the test below counts from here).
    const { member: _member, ...broken } = commandInteraction(MEMBER.userId, 'maps');
    discord.dispatch('INTERACTION_CREATE', broken);
    await until(() => bot.lines().find((l) => l.msg === 'interaction payload not understood'), 'the not-understood line', bot, 10_000);
    const next = commandInteraction(MEMBER.userId, 'maps');
    discord.dispatchInteraction(next);
    await callbackFor(discord, next);
    expect(discord.calls.some((c) => c.path.includes(`/interactions/${broken.id}/`))).toBe(false);
    expect(bot.proc.exitCode).toBeNull();
  }, 30_000);

  it('logs a dispatch that makes discord.js throw (a GUILD_MEMBER_ADD with no user) with its context, and keeps answering', async () => {
    const REJECTION = 'unhandled promise rejection: logged, and the bot keeps running';
    const MEMBER_ERROR = "Cannot read properties of undefined (reading 'id')";
    const before = bot.lines().filter((l) => l.msg === REJECTION).length;
    discord.dispatch('GUILD_MEMBER_ADD', { guild_id: GUILD_ID, roles: [], joined_at: new Date().toISOString(), deaf: false, mute: false });
    // Found by its error: the broken interaction of the test above can make discord.js throw too, logged a moment later.
    const logged = await until(
      () => bot.lines().find((l) => l.msg === REJECTION && (l.err as { message?: string } | undefined)?.message === MEMBER_ERROR),
      'the rejection line',
      bot,
      10_000,
    );
    expect(logged).toMatchObject({ level: 50, err: { type: 'TypeError' }, lastDispatch: { t: 'GUILD_MEMBER_ADD', shard: 0 } });
    expect(logged.unhandledRejections as number).toBeGreaterThan(before);
    // The stack is in the log; in the bundle discord.js's frames are its class names (file paths with --enable-source-maps).
    expect((logged.err as { stack: string }).stack).toMatch(/GuildMemberManager|discord\.js/);

    const next = commandInteraction(MEMBER.userId, 'maps');
    discord.dispatchInteraction(next);
    await callbackFor(discord, next);
    expect(bot.proc.exitCode).toBeNull();
  }, 30_000);
});

/**
 * `npm run bench` ("Lean and fast"): the bot beside a bare discord.js 14 bot
 * (scripts/bench-bare.mjs: default caches, one constant embed for every interaction), side by side from
 * the same run, min / median / max over `--runs` repetitions, with the machine's load.
 *
 * Contestants run as their own processes, each against a fresh fake Discord (test/e2e/fake-discord.ts)
 * in this process. The bot runs as production runs it: `npm run build` once (scripts/build.mjs), then
 * `node <build>/index.js` with DISCORD_TOKEN, DISCORD_API_URL=<fake>/api, a fresh DATA_DIR, LOG_LEVEL=info,
 * and RIVALS_API_KEY / RIVALS_API_BASE_URL of an API replica this script starts (src/replica), so the bot
 * does not run the replica in-process. The build is copied to a temporary `.bench-dist-*` folder beside
 * `dist/` (removed at exit), so a rebuild by anyone else during the bench changes nothing. The bare bot
 * is `node scripts/bench-bare.mjs`. Both start with `--expose-gc --import scripts/bench-probe.mjs` (a
 * memory probe that does nothing until SIGUSR2). Per run and figure the two go back to back, taking
 * turns at going first.
 *
 * Figures:
 * - latency: cached `/player` (sample player 1403392756, "Card1gan"), `--interactions` (500) sent one at a
 *   time, each after the previous one's callback: ms from the INTERACTION_CREATE dispatch on the gateway
 *   to the arrival of `POST /interactions/{id}/{token}/callback` at the fake's REST side (both on the
 *   fake's clock); p50 and p99 per run. One warm-up lookup first (the cold-start interaction below), so
 *   the bot's cache holds the player; then 1.5 s for the start-up to settle.
 * - cold: from spawn to READY sent by the fake, to the contestant's ready log line (`logged in...`), and
 *   to the callback of one `/player` dispatched right after READY and GUILD_CREATE (for the bot an
 *   uncached lookup: the replica answers it), ms. The same launch as the latency figure.
 * - memory: RSS and V8 heap used (after a forced full GC, MiB) with one small guild (idle), and after
 *   `--guilds` (2,500) GUILD_CREATE, once in the "full" shape (50 channels, 30 roles, 100 members, 50
 *   emojis per guild) and once in the "Guilds intent" shape (the same with only the bot's own member);
 *   read 1.5 s after every guild was delivered and the contestant logged its ready line. Heap per guild
 *   = (heap after the guilds − heap idle) / guilds, KiB.
 * - fanout (the bot only: the bare bot has no feeds): one patch note to `--channels` (1,000) channels, one
 *   per guild, under a strict sliding-window global limit of 50 requests/s (the fake answers 429 past it,
 *   as Discord does). The bot's DATA_DIR is seeded with the guilds' patchNotes subscriptions through the
 *   store's own API; once the poller (FEED_POLL_SECONDS=1) has initialised the feed, a post is added to
 *   the replica. Measured: s from the first `POST /channels/{id}/messages` to the `--channels`-th
 *   successful one, against the floor of channels / 50 s, and the 429s.
 *
 * Options: `--runs 8`, `--only latency,memory,cold,fanout`, `--guilds 2500`, `--channels 1000`,
 * `--interactions 500`, `--bot-dir DIR` (another checkout, to compare before and after; built with its
 * own scripts/build.mjs, or run through tsx from its src/index.ts when it has none), `--node-arg ARG`
 * (repeatable: an extra node argument of both contestants, e.g. `--node-arg=--cpu-prof`; they are then
 * stopped with SIGTERM, so the profile is written in their working directory).
 * Prints every run, then min / median / max across runs, and a Markdown table for docs/benchmarks.md.
 * Exits 1 when a contestant fails to start (with its last stderr and log lines) or the build fails, 2 on
 * a bad option.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Replica } from '../src/replica/server.js';
import { startReplica } from '../src/replica/server.js';
import {
  commandInteraction,
  generatedChannelId,
  generatedGuildId,
  startFakeDiscord,
  type FakeDiscord,
  type FakeDiscordOptions,
  type GuildShape,
  type RestCall,
} from '../test/e2e/fake-discord.js';
import { baseEnv, children, cleanUpOnExit, prepareBot, removeDir, tempDir } from './bench-support.js';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const PROBE = join(REPO, 'scripts/bench-probe.mjs');
/** The sample player every `/player` asks for (src/replica/data/samples). */
const PLAYER = '1403392756';
const MEMBER_ID = '200000000000000001';
/** Discord's documented global limit, requests per second. */
const GLOBAL_PER_SECOND = 50;
/** Pause after a contestant is ready, before a measurement: its start-up work (feed poll, caches) settles. */
const SETTLE_MS = 1_500;
const FIGURES = ['latency', 'memory', 'cold', 'fanout'] as const;
type Figure = (typeof FIGURES)[number];

// ---------------------------------------------------------------------------------------------------
// Options

interface Options {
  runs: number;
  only: Set<Figure>;
  guilds: number;
  channels: number;
  interactions: number;
  /** The checkout of the bot under test. */
  botDir: string;
  /** Extra node arguments of both contestants (`--node-arg`, repeatable), e.g. `--cpu-prof`. */
  nodeArgs: string[];
}

/** Options from the command line; exits 2 with a usage line when one is invalid. */
function optionsOf(argv: string[]): Options {
  const usage =
    'usage: npm run bench -- [--runs 8] [--only latency,memory,cold,fanout] [--guilds 2500] [--channels 1000] [--interactions 500] [--bot-dir DIR] [--node-arg=--cpu-prof ...]';
  let args;
  try {
    ({ values: args } = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string' },
        only: { type: 'string' },
        guilds: { type: 'string' },
        channels: { type: 'string' },
        interactions: { type: 'string' },
        'bot-dir': { type: 'string' },
        'node-arg': { type: 'string', multiple: true },
      },
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  const only = (args.only ?? FIGURES.join(',')).split(',').map((s) => s.trim());
  const o: Options = {
    runs: Number(args.runs ?? 8),
    only: new Set(only as Figure[]),
    guilds: Number(args.guilds ?? 2_500),
    channels: Number(args.channels ?? 1_000),
    interactions: Number(args.interactions ?? 500),
    botDir: resolve(args['bot-dir'] ?? REPO),
    nodeArgs: args['node-arg'] ?? [],
  };
  const positive = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max;
  if (
    !positive(o.runs, 1_000) ||
    !positive(o.guilds, 100_000) ||
    !positive(o.channels, 100_000) ||
    !positive(o.interactions, 1_000_000) ||
    only.some((f) => !(FIGURES as readonly string[]).includes(f))
  ) {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
  if (!existsSync(join(o.botDir, 'src/index.ts'))) {
    process.stderr.write(`--bot-dir: no src/index.ts in ${o.botDir}\n`);
    process.exit(2);
  }
  return o;
}

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------
// The machine

/** Processes other than this one whose command line mentions vitest (a test run skews every figure). */
function vitestProcesses(): number {
  let n = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('vitest')) n++;
    } catch {
      // gone, or not ours to read
    }
  }
  return n;
}
const load1 = () => loadavg()[0]!;
const loadText = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------------
// Contestants

/** A contestant: how to start it. */
interface Contestant {
  name: string;
  /** Arguments to node after the probe's, and the working directory. */
  args: string[];
  cwd: string;
  /** Stop with SIGTERM before SIGKILL (with `--node-arg`, so that a profile is written). */
  graceful: boolean;
  env: (apiUrl: string, dataDir: string, extra: Record<string, string>) => Record<string, string>;
}

function contestants(o: Options, replica: Replica, botArgs: string[]): { bot: Contestant; bare: Contestant } {
  return {
    bot: {
      name: o.botDir === REPO ? 'rivals-bot' : `rivals-bot (${o.botDir})`,
      args: [...o.nodeArgs, ...botArgs],
      cwd: o.botDir,
      graceful: o.nodeArgs.length > 0,
      env: (apiUrl, dataDir, extra) => ({
        ...baseEnv(),
        DISCORD_TOKEN: 'bench-token',
        DISCORD_API_URL: apiUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        RIVALS_API_KEY: replica.apiKey,
        RIVALS_API_BASE_URL: replica.url,
        ...extra,
      }),
    },
    bare: {
      name: 'bare discord.js',
      args: [...o.nodeArgs, join(REPO, 'scripts/bench-bare.mjs')],
      cwd: REPO,
      graceful: o.nodeArgs.length > 0,
      env: (apiUrl) => ({ ...baseEnv(), DISCORD_TOKEN: 'bench-token', DISCORD_API_URL: apiUrl }),
    },
  };
}

/** One JSON log line of a contestant, with when it arrived here (ms since the epoch). */
type LogEntry = { level?: number; msg?: string; feed?: string; guilds?: number; at: number } & Record<string, unknown>;
/** `process.memoryUsage()` of a contestant, bytes. */
interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** A contestant's process and what its output says. */
interface Running {
  child: ChildProcess;
  /** When it was spawned, ms since the epoch. */
  spawnAt: number;
  /** Resolves with its ready log line (`logged in...`). */
  loggedIn: Promise<LogEntry>;
  /** Resolves with a reason when it exits. */
  exited: Promise<string>;
  /** Resolves with the first log line (past or future) that passes `test`. */
  log(test: (e: LogEntry) => boolean): Promise<LogEntry>;
  /** Sends SIGUSR2 and resolves with the probe's reading. */
  probe(): Promise<Memory>;
  /** Counts of warning and error log lines, by `level msg`. */
  problems: Map<string, number>;
  /** Its last stderr lines and last log lines, for a failure report. */
  tail(): string;
}

const LEVELS: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };

/** Starts `c` with the memory probe preloaded. */
function launch(c: Contestant, apiUrl: string, dataDir: string, extraEnv: Record<string, string> = {}): Running {
  const spawnAt = Date.now();
  const child = spawn(process.execPath, ['--expose-gc', '--import', pathToFileURL(PROBE).href, ...c.args], {
    cwd: c.cwd,
    env: c.env(apiUrl, dataDir, extraEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const entries: LogEntry[] = [];
  const logWaiters: { test: (e: LogEntry) => boolean; done: (e: LogEntry) => void }[] = [];
  const problems = new Map<string, number>();
  const probes: ((m: Memory) => void)[] = [];
  let stdoutTail: string[] = [];
  let stderrTail: string[] = [];
  const keep = (tail: string[], line: string) => (tail.length >= 30 ? [...tail.slice(1), line] : [...tail, line]);
  const lines = (stream: NodeJS.ReadableStream, each: (line: string) => void) => {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) each(line);
    });
  };
  lines(child.stdout, (line) => {
    stdoutTail = keep(stdoutTail, line);
    if (!line.startsWith('{')) return;
    let entry: LogEntry;
    try {
      entry = { ...(JSON.parse(line) as Record<string, unknown>), at: Date.now() };
    } catch {
      return;
    }
    if ((entry.level ?? 0) >= 40) {
      const key = `${LEVELS[entry.level!] ?? entry.level} ${entry.msg ?? ''}`;
      problems.set(key, (problems.get(key) ?? 0) + 1);
    }
    if (entries.length < 10_000) entries.push(entry);
    for (const w of [...logWaiters]) {
      if (!w.test(entry)) continue;
      logWaiters.splice(logWaiters.indexOf(w), 1);
      w.done(entry);
    }
  });
  lines(child.stderr, (line) => {
    if (line.startsWith('{"benchProbe"')) {
      const reading = (JSON.parse(line) as { benchProbe: Memory }).benchProbe;
      probes.shift()?.(reading);
      return;
    }
    stderrTail = keep(stderrTail, line);
  });
  const exited = new Promise<string>((done) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      done(`exited (${signal ?? `code ${code}`})`);
    }),
  );
  const log = (test: (e: LogEntry) => boolean) => {
    const found = entries.find(test);
    return found ? Promise.resolve(found) : new Promise<LogEntry>((done) => logWaiters.push({ test, done }));
  };
  return {
    child,
    spawnAt,
    loggedIn: log((e) => typeof e.msg === 'string' && e.msg.startsWith('logged in')),
    exited,
    log,
    probe: () =>
      new Promise<Memory>((done) => {
        probes.push(done);
        child.kill('SIGUSR2');
      }),
    problems,
    tail: () => `--- last stderr lines ---\n${stderrTail.join('\n') || '(none)'}\n--- last log lines ---\n${stdoutTail.slice(-10).join('\n') || '(none)'}`,
  };
}

/** A contestant that did not start or stopped answering: the message names it and shows its last output. */
class ContestantFailed extends Error {}

/**
 * Waits for `promise`, failing with {@link ContestantFailed} when the contestant exits first or
 * `timeoutMs` passes; `what` names the wait in the message.
 */
async function watch<T>(r: Running, name: string, what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const failure = Symbol('failure');
  let reason = '';
  const result = await Promise.race([
    promise,
    r.exited.then((why) => ((reason = why), failure)),
    new Promise<typeof failure>((done) => (timer = setTimeout(() => ((reason = `nothing after ${timeoutMs / 1000} s`), done(failure)), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (result === failure) throw new ContestantFailed(`${name} failed while waiting for ${what}: ${reason}\n${r.tail()}`);
  return result as T;
}

/**
 * Kills the contestant (SIGKILL: nothing it would do on a graceful stop is measured); with `--node-arg`
 * given, SIGTERM first and SIGKILL after 10 s, so that a `--cpu-prof` profile is written.
 */
async function stop(r: Running, graceful: boolean): Promise<void> {
  if (r.child.exitCode !== null || r.child.signalCode !== null) return void (await r.exited);
  if (graceful) {
    r.child.kill('SIGTERM');
    const timer = setTimeout(() => r.child.kill('SIGKILL'), 10_000);
    await r.exited;
    clearTimeout(timer);
    return;
  }
  r.child.kill('SIGKILL');
  await r.exited;
}

/** Starts a fake Discord, a fresh DATA_DIR and the contestant; runs `body`; then stops and removes them all. */
async function session<T>(
  c: Contestant,
  fakeOptions: FakeDiscordOptions,
  body: (fake: FakeDiscord, r: Running, dataDir: string) => Promise<T>,
  prepare?: (dataDir: string) => Promise<void>,
  extraEnv?: Record<string, string>,
): Promise<T> {
  const fake = await startFakeDiscord(fakeOptions);
  const dataDir = tempDir(tmpdir(), 'rivals-bench-');
  let running: Running | undefined;
  try {
    await prepare?.(dataDir);
    running = launch(c, fake.apiUrl, dataDir, extraEnv);
    return await body(fake, running, dataDir);
  } finally {
    if (running) await stop(running, c.graceful);
    await fake.close();
    removeDir(dataDir);
  }
}

const callbackOf = (i: { id: string; token: string }) => (c: RestCall) => c.method === 'POST' && c.path === `/interactions/${i.id}/${i.token}/callback`;
/** The interaction response type of a callback (4 reply, 5 deferral...), from its JSON or multipart body. */
function callbackType(c: RestCall): number | undefined {
  if (c.body && typeof c.body === 'object') return (c.body as { type?: number }).type;
  const m = typeof c.body === 'string' ? c.body.match(/"type"\s*:\s*(\d+)/) : null;
  return m ? Number(m[1]) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Measurements

/** Cold start (ms since spawn) and the cached `/player` latencies (ms) of one launch. */
interface Interactive {
  ready: number;
  loggedIn: number;
  firstAnswer: number;
  /** Per interaction, ms from dispatch to callback; empty when latency was not asked. */
  latencies: number[];
  /** Callback types of the timed interactions: 4 reply, 5 deferral... */
  types: Map<number | undefined, number>;
  load: number;
  problems: Map<string, number>;
}

/**
 * One launch against the default fake (one small guild): spawn → READY, → ready log line, → the
 * callback of a `/player` dispatched right after READY and GUILD_CREATE; then, when `interactions` > 0,
 * that many cached `/player`, one at a time.
 */
async function interactive(c: Contestant, interactions: number): Promise<Interactive> {
  const load = load1();
  return session(c, {}, async (fake, r) => {
    await watch(r, c.name, 'READY', fake.ready(), 60_000);
    const first = commandInteraction(MEMBER_ID, 'player', { query: PLAYER });
    fake.dispatchInteraction(first);
    const firstCall = await watch(r, c.name, 'the first interaction’s callback', fake.waitFor(callbackOf(first), 60_000), 61_000);
    const loggedIn = await watch(r, c.name, 'its ready log line', r.loggedIn, 60_000);
    const result: Interactive = {
      ready: fake.readySentAt! - r.spawnAt,
      loggedIn: loggedIn.at - r.spawnAt,
      firstAnswer: firstCall.receivedAt - r.spawnAt,
      latencies: [],
      types: new Map(),
      load,
      problems: r.problems,
    };
    if (interactions === 0) return result;
    await sleep(SETTLE_MS);
    result.load = load1();
    r.problems.clear();
    for (let n = 0; n < interactions; n++) {
      const i = commandInteraction(MEMBER_ID, 'player', { query: PLAYER });
      const sentAt = fake.dispatchInteraction(i);
      const call = await watch(r, c.name, `the callback of /player number ${n + 1}`, fake.waitFor(callbackOf(i), 10_000), 11_000);
      result.latencies.push(call.at - sentAt);
      const type = callbackType(call);
      result.types.set(type, (result.types.get(type) ?? 0) + 1);
      // The fake keeps every call; the ones of answered interactions are not needed again.
      fake.calls.length = 0;
    }
    return result;
  });
}

/** Memory of one launch (bytes) after its guilds arrived, with the guilds it reported and the time it took (ms since spawn). */
interface MemoryReading extends Memory {
  guildsSeen?: number;
  loggedIn: number;
  load: number;
}

type MemoryShape = 'idle' | GuildShape;
const SHAPES: MemoryShape[] = ['idle', 'full', 'guilds-intent'];
const shapeName: Record<MemoryShape, string> = { idle: 'idle (1 small guild)', full: 'full', 'guilds-intent': 'Guilds intent' };

/** Memory after one small guild (`idle`) or `guilds` generated guilds of `shape`, read by the probe after a full GC. */
async function memory(c: Contestant, shape: MemoryShape, guilds: number): Promise<MemoryReading> {
  const load = load1();
  return session(c, shape === 'idle' ? {} : { guilds: { count: guilds, shape } }, async (fake, r) => {
    const timeout = 60_000 + guilds * 60;
    await watch(r, c.name, `${shape === 'idle' ? 'the' : guilds} GUILD_CREATE`, fake.ready(), timeout);
    const loggedIn = await watch(r, c.name, 'its ready log line', r.loggedIn, timeout);
    await sleep(SETTLE_MS);
    const m = await watch(r, c.name, 'the memory probe', r.probe(), 30_000);
    return {
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      guildsSeen: loggedIn.guilds,
      loggedIn: loggedIn.at - r.spawnAt,
      load,
    };
  });
}

/** One fan-out of a patch note. Times are ms. */
interface FanOut {
  /** From the first `POST /channels/{id}/messages` to the last of `channels` successful ones. */
  spanMs: number;
  /** From the post's addition to the replica to the first POST (the poll interval is in it). */
  firstPostMs: number;
  rateLimited: number;
  attempts: number;
  /** Successful posts to a channel that already had the post. */
  duplicates: number;
  load: number;
  problems: Map<string, number>;
}

/** The store API of the checkout under test, used to seed its DATA_DIR. */
async function seedSubscriptions(botDir: string, dataDir: string, channels: number): Promise<void> {
  const { openState } = (await import(pathToFileURL(join(botDir, 'src/store/state.ts')).href)) as typeof import('../src/store/state.js');
  const { createLogger } = (await import(pathToFileURL(join(botDir, 'src/core/logger.ts')).href)) as typeof import('../src/core/logger.js');
  const state = await openState({ dataDir, logger: createLogger({ level: 'silent', pretty: false }) });
  try {
    const since = Date.now();
    for (let g = 0; g < channels; g++) {
      await state.settings.update(generatedGuildId(g), (s) => {
        s.feeds.patchNotes = {
          channelId: generatedChannelId(g, 0),
          roleId: null,
          since,
          publish: false,
          backfill: 0,
          broken: null,
          lastDelivered: null,
          lastEdit: null,
        };
      });
    }
  } finally {
    await state.close();
  }
}

/**
 * The fan-out of one new patch note to `channels` channels (one per generated guild, Guilds-intent
 * shape) under the fake's strict global limit of {@link GLOBAL_PER_SECOND} requests a second.
 */
async function fanOut(c: Contestant, o: Options, replica: Replica, run: number): Promise<FanOut> {
  const channels = o.channels;
  const targets = new Set(Array.from({ length: channels }, (_, g) => generatedChannelId(g, 0)));
  const fakeOptions: FakeDiscordOptions = { guilds: { count: channels, shape: 'guilds-intent' }, globalLimit: { perSecond: GLOBAL_PER_SECOND } };
  return session(
    c,
    fakeOptions,
    async (fake, r) => {
      const timeout = 60_000 + channels * 60;
      await watch(r, c.name, `${channels} GUILD_CREATE`, fake.ready(), timeout);
      await watch(r, c.name, 'its ready log line', r.loggedIn, timeout);
      await watch(
        r,
        c.name,
        'the log line "feed initialised" of patchNotes',
        r.log((e) => e.feed === 'patchNotes' && typeof e.msg === 'string' && e.msg.startsWith('feed initialised')),
        60_000,
      );
      r.problems.clear();
      const load = load1();
      const id = `bench-${process.pid}-${run}-${Date.now()}`;
      const added = await fetch(`${replica.url}/__replica/posts/patchNotes`, {
        method: 'POST',
        body: JSON.stringify({
          id,
          title: `Version ${id} Patch Notes`,
          date: '2099/12/31',
          overview: 'Benchmark post.',
          fullContent: 'Benchmark post.',
          imagePath: '/patch.jpg',
        }),
      });
      if (added.status !== 201) throw new Error(`the replica refused the post: ${added.status} ${await added.text()}`);
      const addedAt = Date.now();
      // Calls are read as they come, from a cursor; a 429 is in `globalLimited` as soon as it is in `calls`.
      let cursor = 0;
      let first: RestCall | undefined;
      let last: RestCall | undefined;
      let attempts = 0;
      let duplicates = 0;
      const delivered = new Set<string>();
      const limited = new Set<RestCall>();
      let limitedSeen = 0;
      const deadline = performance.now() + 60_000 + (channels / GLOBAL_PER_SECOND) * 5_000;
      while (delivered.size < channels) {
        if (performance.now() > deadline)
          throw new ContestantFailed(
            `${c.name}: only ${delivered.size} of ${channels} channels got the post in time (${attempts} attempts, ${fake.globalLimited.length} answered 429)\n${r.tail()}`,
          );
        if (r.child.exitCode !== null || r.child.signalCode !== null) throw new ContestantFailed(`${c.name} exited during the fan-out\n${r.tail()}`);
        await sleep(20);
        for (; limitedSeen < fake.globalLimited.length; limitedSeen++) limited.add(fake.globalLimited[limitedSeen]!);
        for (; cursor < fake.calls.length; cursor++) {
          const call = fake.calls[cursor]!;
          const channel = call.method === 'POST' ? call.path.match(/^\/channels\/(\d+)\/messages$/)?.[1] : undefined;
          if (channel === undefined || !targets.has(channel)) continue;
          attempts++;
          first ??= call;
          if (limited.has(call)) continue;
          if (delivered.has(channel)) duplicates++;
          delivered.add(channel);
          if (delivered.size === channels) last = call;
        }
      }
      return {
        // `at`: the fake's clock (ms since it started); `receivedAt`: ms since the epoch.
        spanMs: last!.at - first!.at,
        firstPostMs: first!.receivedAt - addedAt,
        rateLimited: fake.globalLimited.length,
        attempts,
        duplicates,
        load,
        problems: r.problems,
      };
    },
    (dataDir) => seedSubscriptions(o.botDir, dataDir, channels),
    { FEED_POLL_SECONDS: '1' },
  );
}

// ---------------------------------------------------------------------------------------------------
// Figures

/** The q-quantile (0..1) of samples, by the nearest rank. */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}
function spread(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0
    ? { min: Number.NaN, median: Number.NaN, max: Number.NaN }
    : { min: s[0]!, median: s[Math.floor((s.length - 1) / 2)]!, max: s[s.length - 1]! };
}
const MiB = 1024 * 1024;
const ms = (x: number) => (Number.isNaN(x) ? '-' : x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`);
const secs = (x: number) => (Number.isNaN(x) ? '-' : `${(x / 1000).toFixed(2)} s`);
const mib = (bytes: number) => (Number.isNaN(bytes) ? '-' : `${(bytes / MiB).toFixed(1)} MiB`);
const kib = (bytes: number) => (Number.isNaN(bytes) ? '-' : `${(bytes / 1024).toFixed(2)} KiB`);
const int = (n: number) => (Number.isNaN(n) ? '-' : n.toLocaleString('en-US'));
const problemsText = (p: Map<string, number>) =>
  p.size === 0
    ? ''
    : `; log: ${[...p]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([k, n]) => `${n} × ${k}`)
        .join(', ')}`;

/** Every figure of every run, by name, per contestant: numbers in the unit `format` prints. */
class Results {
  readonly rows = new Map<string, { format: (x: number) => string; values: Map<string, number[]> }>();
  add(row: string, contestant: string, value: number, format: (x: number) => string): void {
    const r = this.rows.get(row) ?? { format, values: new Map<string, number[]>() };
    this.rows.set(row, r);
    r.values.set(contestant, [...(r.values.get(contestant) ?? []), value]);
  }
  /** `min / median / max` of a row for a contestant, or `-`. */
  triple(row: string, contestant: string): string {
    const r = this.rows.get(row);
    const xs = r?.values.get(contestant);
    if (!r || !xs || xs.length === 0) return '-';
    const s = spread(xs);
    return xs.length === 1 ? r.format(s.median) : `${r.format(s.min)} / ${r.format(s.median)} / ${r.format(s.max)}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// The runs

async function main(o: Options): Promise<void> {
  cleanUpOnExit(out);
  const vitest = vitestProcesses();
  out(
    `bench: ${o.runs} run${o.runs > 1 ? 's' : ''} of ${[...o.only].join(', ')}; ${int(o.interactions)} cached /player a run; ${int(o.guilds)} guilds; fan-out to ${int(o.channels)} channels`,
  );
  out(
    `machine: ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GiB; load average ${loadText()} (1, 5, 15 min); node ${process.version}`,
  );
  if (vitest > 0) out(`warning: ${vitest} vitest process${vitest > 1 ? 'es are' : ' is'} running: the figures will be skewed`);

  let prepared: { args: string[]; how: string };
  try {
    prepared = prepareBot(o.botDir);
  } catch (err) {
    process.stderr.write(`bench: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const replica = await startReplica({ apiKey: 'bench-replica-key' });
  const { bot, bare } = contestants(o, replica, prepared.args);
  const nameWidth = Math.max(bot.name.length, bare.name.length);
  out(`bot: ${prepared.how}; game API: the replica at ${replica.url}, in the bench's process`);
  out(`baseline: node scripts/bench-bare.mjs (discord.js ${discordJsVersion()}, default caches)`);

  const results = new Results();
  const loads: number[] = [];
  try {
    for (let run = 0; run < o.runs; run++) {
      loads.push(load1());
      const tests = vitestProcesses();
      out(`\nrun ${run + 1}/${o.runs} (load average ${loadText()}${tests > 0 ? `; warning: ${tests} vitest processes running` : ''})`);
      const order = run % 2 === 0 ? [bot, bare] : [bare, bot];
      if (o.only.has('latency') || o.only.has('cold')) {
        for (const c of order) {
          const i = await interactive(c, o.only.has('latency') ? o.interactions : 0);
          if (o.only.has('cold')) {
            out(
              `  cold     ${c.name.padEnd(nameWidth)} spawn → READY ${ms(i.ready)}, → logged in ${ms(i.loggedIn)}, → first /player answered ${ms(i.firstAnswer)}`,
            );
            results.add('cold start: spawn → READY sent', c.name, i.ready, ms);
            results.add('cold start: spawn → ready log line', c.name, i.loggedIn, ms);
            results.add('cold start: spawn → first /player answered', c.name, i.firstAnswer, ms);
          }
          if (o.only.has('latency')) {
            const types = [...i.types].map(([t, n]) => `${int(n)} × type ${t ?? '?'}`).join(', ');
            out(
              `  latency  ${c.name.padEnd(nameWidth)} p50 ${ms(quantile(i.latencies, 0.5))}, p99 ${ms(quantile(i.latencies, 0.99))}, max ${ms(quantile(i.latencies, 1))} over ${int(i.latencies.length)} (callbacks: ${types}); load ${i.load.toFixed(2)}${problemsText(i.problems)}`,
            );
            results.add('cached /player p50', c.name, quantile(i.latencies, 0.5), ms);
            results.add('cached /player p99', c.name, quantile(i.latencies, 0.99), ms);
          }
        }
      }
      if (o.only.has('memory')) {
        const idle = new Map<string, MemoryReading>();
        for (const shape of SHAPES) {
          for (const c of order) {
            const m = await memory(c, shape, o.guilds);
            if (shape === 'idle') idle.set(c.name, m);
            const base = idle.get(c.name);
            const perGuild = shape !== 'idle' && base ? (m.heapUsed - base.heapUsed) / o.guilds : Number.NaN;
            const seen =
              shape === 'idle' || m.guildsSeen === undefined ? '' : `, ${int(m.guildsSeen)} guilds seen${m.guildsSeen !== o.guilds ? ' (NOT ALL)' : ''}`;
            out(
              `  memory   ${c.name.padEnd(nameWidth)} ${shapeName[shape].padEnd(20)} RSS ${mib(m.rss)}, heap ${mib(m.heapUsed)}${shape === 'idle' ? '' : `, heap per guild ${kib(perGuild)}`}, ready ${ms(m.loggedIn)} after spawn${seen}; load ${m.load.toFixed(2)}`,
            );
            const label = shape === 'idle' ? 'idle (1 small guild)' : `${int(o.guilds)} guilds, ${shapeName[shape]}`;
            results.add(`RSS ${label}`, c.name, m.rss, mib);
            results.add(`heap ${label}`, c.name, m.heapUsed, mib);
            if (shape !== 'idle') results.add(`heap per guild, ${shapeName[shape]}`, c.name, perGuild, kib);
            if (shape !== 'idle') results.add(`spawn → ready with ${int(o.guilds)} guilds, ${shapeName[shape]}`, c.name, m.loggedIn, ms);
          }
        }
      }
      if (o.only.has('fanout')) {
        const f = await fanOut(bot, o, replica, run);
        const floor = (o.channels / GLOBAL_PER_SECOND) * 1000;
        out(
          `  fan-out  ${bot.name.padEnd(nameWidth)} ${int(o.channels)} channels in ${secs(f.spanMs)} (floor ${secs(floor)}, ${((100 * floor) / f.spanMs).toFixed(0)} % of the limit's rate); ${int(f.rateLimited)} × 429; ${int(f.attempts)} POSTs${f.duplicates ? `, ${f.duplicates} DUPLICATES` : ''}; post added → first POST ${ms(f.firstPostMs)}; load ${f.load.toFixed(2)}${problemsText(f.problems)}`,
        );
        results.add(`fan-out to ${int(o.channels)} channels (floor ${secs(floor)})`, bot.name, f.spanMs, secs);
        results.add('fan-out: 429 answers', bot.name, f.rateLimited, int);
        results.add('fan-out: post added → first POST', bot.name, f.firstPostMs, ms);
      }
    }
  } catch (err) {
    process.stderr.write(`\nbench: ${(err as Error).message}\n`);
    await replica.close();
    process.exit(1);
  }
  await replica.close();

  const l = spread(loads);
  const rows = [...results.rows.keys()];
  const width = Math.max(...rows.map((k) => k.length));
  const bareWidth = Math.max(bare.name.length, ...rows.map((row) => results.triple(row, bare.name).length));
  out(
    `\nacross ${o.runs} run${o.runs > 1 ? 's' : ''}, min / median / max; load average (1 min) at each run's start ${l.min.toFixed(2)} / ${l.median.toFixed(2)} / ${l.max.toFixed(2)} on ${cpus().length} CPUs`,
  );
  out(`  ${''.padEnd(width)}   ${bare.name.padEnd(bareWidth)}   ${bot.name}`);
  for (const row of rows) out(`  ${row.padEnd(width)}   ${results.triple(row, bare.name).padEnd(bareWidth)}   ${results.triple(row, bot.name)}`);

  out(
    `\nMarkdown (min / median / max of ${o.runs} run${o.runs > 1 ? 's' : ''}; ${cpus().length} CPUs, load average ${l.min.toFixed(2)}–${l.max.toFixed(2)}):\n`,
  );
  out(`| | ${bare.name} | ${bot.name} |`);
  out('|---|---:|---:|');
  for (const row of rows) out(`| ${row} | ${results.triple(row, bare.name).replace(/^-$/, 'n/a (no feeds)')} | ${results.triple(row, bot.name)} |`);
}

function discordJsVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(REPO, 'node_modules/discord.js/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '14';
  }
}

await main(optionsOf(process.argv.slice(2)));

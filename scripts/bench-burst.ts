/**
 * `npm run bench:burst`: K simultaneous `/player` lookups against a slow game API, and how many of
 * them Discord would see acknowledged within 3 s of their creation (Discord: "Receiving and
 * Responding": the initial response is due within 3 seconds), beside a bare discord.js bot
 * (scripts/bench-bare.mjs with BENCH_BARE_REPLY=ok, plain JavaScript, which replies "ok" at once) in the same run.
 *
 * Each contestant runs as its own child process, exactly as in production: the bot is
 * `node dist/index.js` (built first, scripts/build.mjs, and run from a copy of dist/) with DISCORD_TOKEN, DISCORD_API_URL pointing at a fresh fake
 * Discord (test/e2e/fake-discord.ts), no RIVALS_API_KEY (so the in-process replica serves the game
 * API) and REPLICA_LATENCY_MS (default 2000-4000: /player cannot be answered inside 3 s), a fresh
 * DATA_DIR and LOG_LEVEL=info. Per K, per run, the two contestants go back to back, taking turns at
 * going first. For each: start the fake and the contestant, wait for the fake's READY and the
 * contestant's "logged in" log line, dispatch K INTERACTION_CREATE events over the gateway as fast as
 * possible (each interaction's snowflake minted just before it is sent, so creation = dispatch), and
 * wait until every interaction has its first callback (`POST /interactions/{id}/{token}/callback`)
 * (and, for the bot, its final answer) or the window (default 15 s after the last dispatch) is over.
 *
 * The interactions: distinct members, and distinct player names that the replica does not know (so
 * the cache cannot answer them), with every tenth one a real sample player (uid or name).
 *
 * Measured, per interaction: ack latency = when the first callback arrived − the interaction's
 * creation time (its snowflake); for the bot also the first final answer (a reply of type 4, a PATCH
 * of `@original`, or a follow-up after a deleted placeholder). Discord's REST side is a front server
 * on a worker thread of this script (listen backlog 65,535, no request timeouts): it stamps every
 * arrival on its own event loop, so the dispatch loop cannot delay a timestamp; it answers interaction
 * callbacks itself with 204, as the fake does; and it forwards every other request to the fake over
 * 64 keep-alive connections, so the fake's server (Node's default backlog of 511) never sees 10,000
 * concurrent connections. Printed beside the figures: how long the dispatch took, the CPU time of the
 * contestant and of this process, the host's load, the peak number of REST connections, and
 * connections dropped at full accept queues on the host (none expected).
 *
 * Options (or environment): `--k 2000,10000` (BENCH_BURST_K), `--runs 3` (BENCH_BURST_RUNS),
 * `--latency 2000-4000` (BENCH_BURST_LATENCY_MS, ms, fixed or min-max), `--window 15000`
 * (BENCH_BURST_WINDOW_MS), `--bot-dir DIR` (run src/index.ts of another checkout, e.g. to compare
 * before and after a change; one from before the production build runs under tsx), `--node-arg ARG` (repeatable: an
 * extra node argument of both contestants, e.g. `--node-arg=--cpu-prof`). Figures: per run, then min /
 * median / max across runs of the count acknowledged within 3 s, and a Markdown table for docs/benchmarks.md.
 * Exits 1 if a contestant fails to start, 2 on a bad option.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { loadDataset } from '../src/replica/data/dataset.js';
import { commandInteraction, createdAtOf, startFakeDiscord, type FakeDiscord } from '../test/e2e/fake-discord.js';
import { baseEnv, children, cleanUpOnExit, prepareBot, removeDir, tempDir } from './bench-support.js';

/** Discord's acknowledgement limit, ms from creation. */
const ACK_LIMIT_MS = 3_000;
/** Interactions sent per turn of the event loop, so the gateway socket drains and the fake answers REST while it dispatches. */
const DISPATCH_BATCH = 100;
const START_TIMEOUT_MS = 60_000;
const REPO = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------------------------------
// Options

interface Options {
  ks: number[];
  runs: number;
  /** REPLICA_LATENCY_MS of the bot: "ms" or "min-max". */
  latency: string;
  windowMs: number;
  /** The checkout whose src/index.ts runs. */
  botDir: string;
  /** Extra node arguments of both contestants, e.g. `--cpu-prof` (written when the contestant stops on SIGTERM). */
  nodeArgs: string[];
}

/** Options from the command line, else the environment. Exits 2 with a usage line when one is invalid. */
function optionsOf(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      k: { type: 'string', multiple: true },
      runs: { type: 'string' },
      latency: { type: 'string' },
      window: { type: 'string' },
      'bot-dir': { type: 'string' },
      'node-arg': { type: 'string', multiple: true },
    },
  });
  const options: Options = {
    ks: (args.k?.join(',') ?? env.BENCH_BURST_K ?? '2000,10000').split(',').map((s) => Number(s.trim())),
    runs: Number(args.runs ?? env.BENCH_BURST_RUNS ?? 3),
    latency: args.latency ?? env.BENCH_BURST_LATENCY_MS ?? '2000-4000',
    windowMs: Number(args.window ?? env.BENCH_BURST_WINDOW_MS ?? 15_000),
    botDir: resolve(args['bot-dir'] ?? REPO),
    nodeArgs: args['node-arg'] ?? [],
  };
  const { ks, runs, windowMs, latency, botDir } = options;
  if (ks.some((k) => !Number.isInteger(k) || k < 1) || !Number.isInteger(runs) || runs < 1 || !(windowMs > 0) || !/^\d+(-\d+)?$/.test(latency)) {
    process.stderr.write(
      'usage: npm run bench:burst -- [--k 2000,10000] [--runs 3] [--latency 2000-4000] [--window 15000] [--bot-dir DIR] [--node-arg=--prof ...]\n',
    );
    process.exit(2);
  }
  if (!existsSync(join(botDir, 'src/index.ts'))) {
    process.stderr.write(`--bot-dir: no src/index.ts in ${botDir}\n`);
    process.exit(2);
  }
  return options;
}

const out = (line = '') => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------
// The REST front, on its own thread: arrival times that the dispatch loop cannot delay, and a
// server that takes 10,000 concurrent connections.

/** One REST call, as it arrived at the front. */
interface Arrival {
  method: string;
  /** Path without the `/api/v10` prefix and the query. */
  path: string;
  /** ms since the Unix epoch, when the request's headers arrived. */
  receivedAt: number;
  /** The `type` of an interaction callback (4 reply, 5 deferral...), from its JSON or multipart body. */
  callbackType?: number;
}

/** Messages from the front's thread. */
type FrontMessage =
  { kind: 'listening'; apiUrl: string } | { kind: 'arrivals'; arrivals: Arrival[] } | { kind: 'stats'; peakConnections: number; forwardErrors: number };

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length', 'upgrade', 'proxy-connection', 'te', 'trailer']);
function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

/**
 * The front's thread: listens on loopback (backlog 65,535, no request timeouts), stamps and reports
 * every arrival, answers interaction callbacks itself with 204 as the fake does, and forwards every
 * other request to the fake's REST base `target` over 64 keep-alive connections.
 */
async function serveFront(target: string): Promise<void> {
  const port = parentPort!;
  const pool = new Pool(new URL(target).origin, { connections: 64, keepAliveTimeout: 60_000 });
  let open = 0;
  let peakConnections = 0;
  let forwardErrors = 0;
  let pending: Arrival[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    port.postMessage({ kind: 'arrivals', arrivals: pending } satisfies FrontMessage);
    pending = [];
  };
  const server = createServer({ keepAliveTimeout: 60_000, requestTimeout: 0, headersTimeout: 120_000 }, (req, res) => {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://front');
      const path = decodeURIComponent(url.pathname).replace(/^\/api\/v\d+/, '');
      const arrival: Arrival = { method: req.method ?? 'GET', path, receivedAt };
      const callback = arrival.method === 'POST' && /^\/interactions\/\d+\/[^/]+\/callback$/.test(path);
      if (callback) {
        const type = body.toString('utf8').match(/"type"\s*:\s*(\d+)/);
        if (type) arrival.callbackType = Number(type[1]);
      }
      if (pending.push(arrival) === 1) setImmediate(flush);
      // The fake answers every callback with 204 (it ignores `with_response`, which discord.js sends as false).
      if (callback && url.searchParams.get('with_response') !== 'true') {
        res.writeHead(204);
        res.end();
        return;
      }
      pool
        .request({ method: arrival.method as 'GET', path: req.url ?? '/', headers: forwardable(req.headers), body: body.length > 0 ? body : undefined })
        .then(async (answer) => {
          const data = Buffer.from(await answer.body.arrayBuffer());
          const type = answer.headers['content-type'];
          // A repeated header arrives as an array; a response carries one content type.
          const contentType = Array.isArray(type) ? type[0] : type;
          res.writeHead(answer.statusCode, contentType ? { 'content-type': contentType } : {});
          res.end(data);
        })
        .catch(() => {
          forwardErrors++;
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end('{"message":"bench front: the fake did not answer","code":0}');
        });
    });
  });
  server.on('connection', (socket) => {
    peakConnections = Math.max(peakConnections, ++open);
    socket.once('close', () => open--);
  });
  port.on('message', () => {
    flush(); // arrivals first: the main thread reads the stats as "every arrival so far is in"
    port.postMessage({ kind: 'stats', peakConnections, forwardErrors } satisfies FrontMessage);
  });
  await new Promise<void>((done) => server.listen({ host: '127.0.0.1', port: 0, backlog: 65_535 }, done));
  port.postMessage({ kind: 'listening', apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` } satisfies FrontMessage);
}

interface Front {
  apiUrl: string;
  /** Called for every arrival (stamped on the front's thread). */
  onArrival: (a: Arrival) => void;
  stats(): Promise<{ peakConnections: number; forwardErrors: number }>;
  close(): Promise<void>;
}

/** Starts the front's thread (this same file, through tsx) forwarding to the fake's REST base `target`. */
async function startFront(target: string): Promise<Front> {
  // Node 20 does not pass `--import tsx` on to workers: the worker registers tsx itself.
  const code = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(code, { eval: true, workerData: { frontTarget: target } });
  const front: Front = {
    apiUrl: '',
    onArrival: () => undefined,
    stats: async () => ({ peakConnections: 0, forwardErrors: 0 }),
    close: async () => void (await worker.terminate()),
  };
  let statsWaiter: ((s: { peakConnections: number; forwardErrors: number }) => void) | undefined;
  front.stats = () => new Promise((done) => ((statsWaiter = done), worker.postMessage('stats')));
  await new Promise<void>((listening, failed) => {
    worker.once('error', failed);
    worker.on('message', (m: FrontMessage) => {
      if (m.kind === 'listening') {
        front.apiUrl = m.apiUrl;
        listening();
      } else if (m.kind === 'arrivals') {
        for (const a of m.arrivals) front.onArrival(a);
      } else {
        statsWaiter?.(m);
      }
    });
  });
  return front;
}

// ---------------------------------------------------------------------------------------------------
// Contestants

interface Contestant {
  name: string;
  /** Arguments to node, and working directory. */
  args: string[];
  cwd: string;
  env: (apiUrl: string, dataDir: string) => Record<string, string>;
  /** Whether to count final answers (the bare bot's reply is its final answer). */
  finals: boolean;
}

/** The bot, as `npm start` runs it, offline on the replica slowed by `latency`; and the bare bot. */
function contestants(o: Options, botArgs: string[]): { bot: Contestant; bare: Contestant } {
  return {
    bot: {
      name: 'rivals-bot',
      args: botArgs,
      cwd: o.botDir,
      env: (apiUrl, dataDir) => ({
        ...baseEnv(),
        DISCORD_TOKEN: 'bench-burst-token',
        DISCORD_API_URL: apiUrl,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        REPLICA_LATENCY_MS: o.latency,
      }),
      finals: true,
    },
    bare: {
      name: 'bare discord.js bot',
      args: ['scripts/bench-bare.mjs'],
      cwd: REPO,
      env: (apiUrl) => ({ ...baseEnv(), DISCORD_TOKEN: 'bench-burst-token', DISCORD_API_URL: apiUrl, BENCH_BARE_REPLY: 'ok' }),
      finals: false,
    },
  };
}

/** A running contestant: its process and what its log says. */
interface Running {
  child: ChildProcess;
  /** Log lines by `level msg`, counted from when counting was reset. */
  logCounts: Map<string, number>;
  /** The last few KB of output, for a failure report. */
  tail: () => string;
  loggedIn: Promise<void>;
  exited: Promise<void>;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

function launch(c: Contestant, apiUrl: string, dataDir: string, nodeArgs: string[]): Running {
  const child = spawn(process.execPath, [...nodeArgs, ...c.args], { cwd: c.cwd, env: c.env(apiUrl, dataDir), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const logCounts = new Map<string, number>();
  let tail = '';
  let partial = '';
  let signalLoggedIn: () => void = () => undefined;
  const loggedIn = new Promise<void>((done) => (signalLoggedIn = done));
  const take = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-8_000);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; kind?: string };
        const key = `${LEVELS[entry.level ?? 0] ?? entry.level} ${entry.msg ?? ''}${entry.kind ? ` (${entry.kind})` : ''}`;
        logCounts.set(key, (logCounts.get(key) ?? 0) + 1);
        if (entry.msg?.startsWith('logged in')) signalLoggedIn();
      } catch {
        // not a log line
      }
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString('utf8')).slice(-8_000)));
  const exited = new Promise<void>((done) => child.once('exit', () => (children.delete(child), done())));
  return { child, logCounts, tail: () => tail, loggedIn, exited };
}

/** How long a contestant gets to stop after SIGTERM before SIGKILL, ms: long enough for a `--cpu-prof` profile of a burst to be written. */
const STOP_GRACE_MS = 120_000;

/**
 * Stops the contestant: SIGTERM, so that a `--node-arg=--cpu-prof` profile is written, then SIGKILL
 * after {@link STOP_GRACE_MS} (the bot's graceful stop waits up to 10 s for the answers in flight, then
 * closes its pools). Returns the seconds from SIGTERM to exit, and whether it had to be killed.
 */
async function stop(r: Running): Promise<{ seconds: number; killed: boolean }> {
  const start = performance.now();
  let killed = false;
  if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (r.child.exitCode !== null || r.child.signalCode !== null) return;
    killed = true;
    r.child.kill('SIGKILL');
  }, STOP_GRACE_MS);
  await r.exited;
  clearTimeout(timer);
  return { seconds: (performance.now() - start) / 1000, killed };
}

// ---------------------------------------------------------------------------------------------------
// System figures: CPU time of a process (Linux /proc), listen-queue overflows on this host.

const TICKS_PER_SECOND = 100;
/** user + system CPU seconds of `pid`, or undefined where /proc is not available. */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
/** TcpExt ListenOverflows + ListenDrops of this network namespace (connections dropped at a full accept queue). */
function listenDrops(): number | undefined {
  try {
    const [names, values] = readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'));
    const field = (name: string) => Number(values!.split(' ')[names!.split(' ').indexOf(name)]);
    return field('ListenOverflows') + field('ListenDrops');
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// One burst

/** The soft limit on open files of this process (the contestants inherit it), where /proc tells. */
function openFilesLimit(): number | undefined {
  try {
    const limit = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+(\d+)/m);
    return limit ? Number(limit[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The sample players' uids and names: every tenth interaction asks for one of them. */
const realQueries = () => [...loadDataset().players.entries()].flatMap(([uid, p]) => [uid, String(p.name ?? uid)]);

interface Burst {
  k: number;
  dispatchMs: number;
  /** Per interaction, ms from creation; NaN when it never came. */
  ack: Float64Array;
  final: Float64Array;
  replies: number;
  deferrals: number;
  otherCallbacks: number;
  ackedWithinLimit: number;
  cpuSeconds?: number;
  /** CPU seconds of this process (the fake Discord, the front, the dispatch) over the same span. */
  benchCpuSeconds: number;
  wallSeconds: number;
  peakConnections: number;
  forwardErrors: number;
  listenDrops?: number;
  /** The contestant's process id (names its CPU profile). */
  pid?: number;
  /** Load average (1 min) of the host when the burst started. */
  load: number;
  logCounts: Map<string, number>;
  /** Seconds from SIGTERM after the window to the contestant's exit, and whether it was SIGKILLed. */
  stopped?: { seconds: number; killed: boolean };
}

async function burst(c: Contestant, k: number, run: number, o: Options, real: string[]): Promise<Burst> {
  let result: Burst | undefined;
  const fake: FakeDiscord = await startFakeDiscord();
  const front = await startFront(fake.apiUrl);
  const dataDir = tempDir(tmpdir(), 'rivals-bench-burst-');
  const running = launch(c, front.apiUrl, dataDir, o.nodeArgs);
  try {
    const started = Promise.all([fake.ready(), running.loggedIn]).then(() => undefined);
    const failed = running.exited.then(() => 'exited before logging in');
    let startTimer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((r) => (startTimer = setTimeout(() => r(`not logged in after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)));
    const problem = await Promise.race([started, failed, late]);
    clearTimeout(startTimer);
    if (problem !== undefined) throw new Error(`${c.name} did not start: ${problem}\n--- its output (tail) ---\n${running.tail()}`);
    // Let the start-up settle (feeds poller's first poll, command caches) so the burst meets a bot at rest.
    await new Promise((r) => setTimeout(r, 1_000));
    running.logCounts.clear();

    const created = new Float64Array(k);
    const ack = new Float64Array(k).fill(Number.NaN);
    const final = new Float64Array(k).fill(Number.NaN);
    const byId = new Map<string, number>();
    const byToken = new Map<string, number>();
    let acked = 0;
    let finals = 0;
    let replies = 0;
    let deferrals = 0;
    let otherCallbacks = 0;
    let settled: () => void = () => undefined;
    const allDone = new Promise<void>((r) => (settled = r));
    const check = () => {
      if (acked === k && (!c.finals || finals === k)) settled();
    };
    const finalAt = (i: number | undefined, at: number) => {
      if (i === undefined || !Number.isNaN(final[i]!)) return;
      final[i] = at - created[i]!;
      finals++;
    };
    let cutoff = Number.POSITIVE_INFINITY;
    front.onArrival = (a) => {
      if (a.receivedAt > cutoff) return;
      const callback = a.method === 'POST' ? a.path.match(/^\/interactions\/(\d+)\/[^/]+\/callback$/) : null;
      if (callback) {
        const i = byId.get(callback[1]!);
        if (i === undefined) return;
        if (Number.isNaN(ack[i]!)) {
          ack[i] = a.receivedAt - created[i]!;
          acked++;
          if (a.callbackType === 4) replies++;
          else if (a.callbackType === 5) deferrals++;
          else otherCallbacks++;
        }
        if (a.callbackType === 4) finalAt(i, a.receivedAt);
      } else {
        const webhook = a.path.match(/^\/webhooks\/\d+\/([^/]+)(\/messages\/@original)?$/);
        // PATCH @original replaces the placeholder; a POST is a follow-up (after a deleted placeholder).
        if (webhook && ((a.method === 'PATCH' && webhook[2]) || (a.method === 'POST' && !webhook[2]))) finalAt(byToken.get(webhook[1]!), a.receivedAt);
      }
      check();
    };

    const load = loadavg()[0]!;
    const dropsBefore = listenDrops();
    const cpuBefore = cpuSecondsOf(running.child.pid);
    const benchCpuBefore = process.cpuUsage();
    const wallStart = performance.now();
    for (let i = 0; i < k; i++) {
      const query = i % 10 === 0 ? real[(i / 10) % real.length]! : `burst-${run}-${i}`;
      const interaction = commandInteraction(String(300_000_000_000_000_000n + BigInt(i)), 'player', { query });
      created[i] = createdAtOf(interaction.id);
      byId.set(interaction.id, i);
      byToken.set(interaction.token, i);
      fake.dispatchInteraction(interaction);
      if (i % DISPATCH_BATCH === DISPATCH_BATCH - 1) await new Promise((r) => setImmediate(r));
    }
    const dispatchMs = performance.now() - wallStart;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([allDone, new Promise((r) => (timer = setTimeout(r, o.windowMs)))]);
    clearTimeout(timer);
    // The window is over: arrivals stamped after it count for nothing; those stamped before it and
    // still on their way from the front's thread are in by the time its stats answer (messages keep order).
    cutoff = Date.now();
    const wallSeconds = (performance.now() - wallStart) / 1000;
    const cpuAfter = cpuSecondsOf(running.child.pid);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    const dropsAfter = listenDrops();
    const { peakConnections, forwardErrors } = await front.stats();
    front.onArrival = () => undefined;
    let ackedWithinLimit = 0;
    for (const latency of ack) if (latency <= ACK_LIMIT_MS) ackedWithinLimit++;
    return (result = {
      k,
      dispatchMs,
      ack,
      final,
      replies,
      deferrals,
      otherCallbacks,
      ackedWithinLimit,
      cpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      benchCpuSeconds: (benchCpu.user + benchCpu.system) / 1e6,
      wallSeconds,
      peakConnections,
      forwardErrors,
      listenDrops: dropsBefore === undefined || dropsAfter === undefined ? undefined : dropsAfter - dropsBefore,
      load,
      pid: running.child.pid,
      logCounts: new Map(running.logCounts),
    });
  } finally {
    const stopped = await stop(running);
    if (result) result.stopped = stopped;
    await front.close();
    await fake.close();
    removeDir(dataDir);
  }
}

// ---------------------------------------------------------------------------------------------------
// Figures

const sorted = (xs: ArrayLike<number>) =>
  Float64Array.from(xs)
    .filter((x) => !Number.isNaN(x))
    .sort();
/** The q-quantile (0..1) of sorted samples, by the nearest rank. */
const quantile = (s: Float64Array, q: number) => (s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!);
const seconds = (ms: number) => (Number.isNaN(ms) ? '-' : `${(ms / 1000).toFixed(2)} s`);
const count = (n: number) => n.toLocaleString('en-US');
const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
function spread(xs: number[]): { min: number; median: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0]!, median: s[Math.floor((s.length - 1) / 2)]!, max: s[s.length - 1]! };
}

function report(c: Contestant, b: Burst): void {
  const acks = sorted(b.ack);
  const never = b.k - acks.length;
  out(`  ${c.name} (pid ${b.pid})`);
  out(
    `    acknowledged within 3 s   ${count(b.ackedWithinLimit)} of ${count(b.k)} (${percent(b.ackedWithinLimit, b.k)}); never acknowledged ${count(never)}; replies ${count(b.replies)}, deferrals ${count(b.deferrals)}${b.otherCallbacks ? `, other ${b.otherCallbacks}` : ''}`,
  );
  out(
    `    ack latency               min ${seconds(quantile(acks, 0))}, median ${seconds(quantile(acks, 0.5))}, p95 ${seconds(quantile(acks, 0.95))}, max ${seconds(quantile(acks, 1))}`,
  );
  if (c.finals) {
    const finals = sorted(b.final);
    out(
      `    final answers             ${count(finals.length)} of ${count(b.k)} within the window; latency median ${seconds(quantile(finals, 0.5))}, max ${seconds(quantile(finals, 1))}`,
    );
  }
  const cpu = b.cpuSeconds === undefined ? 'n/a' : `${b.cpuSeconds.toFixed(1)} s (${percent(b.cpuSeconds, b.wallSeconds)} of one core)`;
  out(
    `    dispatch                  ${b.dispatchMs.toFixed(0)} ms for ${count(b.k)}; over the ${b.wallSeconds.toFixed(1)} s that followed, contestant CPU ${cpu}, fake Discord CPU ${b.benchCpuSeconds.toFixed(1)} s; host load ${b.load.toFixed(1)}`,
  );
  out(
    `    REST                      peak ${count(b.peakConnections)} connections to the front${b.forwardErrors ? `, ${b.forwardErrors} forwarding errors` : ''}${b.listenDrops ? `, ${count(b.listenDrops)} connections dropped at full accept queues on the host` : ''}`,
  );
  if (b.stopped)
    out(
      `    stop                      exited ${b.stopped.seconds.toFixed(1)} s after SIGTERM${b.stopped.killed ? ` (SIGKILLed at ${STOP_GRACE_MS / 1000} s)` : ''}`,
    );
  const notable = [...b.logCounts]
    .filter(([key]) => !key.startsWith('info ') && !key.startsWith('debug ') && !key.startsWith('trace '))
    .sort((x, y) => y[1] - x[1]);
  if (notable.length > 0)
    out(
      `    log during the burst      ${notable
        .slice(0, 8)
        .map(([key, n]) => `${count(n)} × ${key}`)
        .join('; ')}`,
    );
}

// ---------------------------------------------------------------------------------------------------
// The runs

async function main(o: Options): Promise<void> {
  cleanUpOnExit(out);
  const { ks, runs } = o;
  let prepared: ReturnType<typeof prepareBot>;
  try {
    prepared = prepareBot(o.botDir);
  } catch (err) {
    process.stderr.write(`bench:burst: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const { bot, bare } = contestants(o, prepared.args);
  const real = realQueries();
  out(
    `bench:burst: K = ${ks.map(count).join(', ')} simultaneous /player; ${runs} run${runs > 1 ? 's' : ''}; replica latency ${o.latency} ms; window ${o.windowMs / 1000} s after the last dispatch`,
  );
  out(
    `bot: ${prepared.how}; machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // Each contestant opens a connection per concurrent REST call, and the front accepts as many.
  const files = openFilesLimit();
  if (files !== undefined && files < Math.max(...ks) + 1_000)
    out(`warning: the open-files limit is ${files}: raise it (ulimit -n ${Math.max(...ks) + 5_000}) or REST calls will fail with EMFILE`);

  const results = new Map<string, Burst[]>();
  const key = (c: Contestant, k: number) => `${c.name}:${k}`;
  try {
    for (let run = 0; run < runs; run++) {
      for (const k of ks) {
        out(`\nrun ${run + 1}/${runs}, K = ${count(k)}`);
        // Taking turns at going first, so neither always meets the machine warmer or busier.
        for (const c of (run + ks.indexOf(k)) % 2 === 0 ? [bot, bare] : [bare, bot]) {
          const b = await burst(c, k, run, o, real);
          results.set(key(c, k), [...(results.get(key(c, k)) ?? []), b]);
          report(c, b);
        }
      }
    }
  } catch (err) {
    process.stderr.write(`\nbench:burst: ${(err as Error).message}\n`);
    process.exit(1);
  }

  if (runs > 1) {
    out(`\nacknowledged within 3 s, across ${runs} runs (min / median / max)`);
    for (const k of ks) {
      for (const c of [bare, bot]) {
        const s = spread(results.get(key(c, k))!.map((b) => b.ackedWithinLimit));
        out(`  K = ${count(k).padEnd(7)} ${c.name.padEnd(20)} ${count(s.min)} / ${count(s.median)} / ${count(s.max)}`);
      }
    }
  }

  const triple = (xs: number[]) => {
    const s = spread(xs);
    return runs === 1 ? count(s.median) : `${count(s.min)} / ${count(s.median)} / ${count(s.max)}`;
  };
  const pooled = (bursts: Burst[], field: 'ack' | 'final') => sorted(bursts.flatMap((b) => [...b[field]]));
  out(
    `\nsummary (for docs/benchmarks.md): interactions acknowledged within 3 s of creation${runs > 1 ? `, min / median / max of ${runs} runs` : ''}; latencies over all runs; replica latency ${o.latency} ms`,
  );
  out('');
  out(
    `| Simultaneous /player | Bare discord.js bot | ${bot.name} | ${bot.name} ack latency, median / p95 / max | ${bot.name} final answers within ${o.windowMs / 1000} s, median latency |`,
  );
  out('|---:|---:|---:|---:|---:|');
  let met = true;
  for (const k of ks) {
    const bareRuns = results.get(key(bare, k))!;
    const botRuns = results.get(key(bot, k))!;
    bareRuns.forEach((b, i) => (met &&= botRuns[i]!.ackedWithinLimit === k && botRuns[i]!.ackedWithinLimit >= b.ackedWithinLimit));
    const acks = pooled(botRuns, 'ack');
    const finals = pooled(botRuns, 'final');
    out(
      `| ${count(k)} | ${triple(bareRuns.map((b) => b.ackedWithinLimit))} | ${triple(botRuns.map((b) => b.ackedWithinLimit))} | ${seconds(quantile(acks, 0.5))} / ${seconds(quantile(acks, 0.95))} / ${seconds(quantile(acks, 1))} | ${percent(finals.length, k * runs)}, ${seconds(quantile(finals, 0.5))} |`,
    );
  }
  out(`\ngoal (every interaction acknowledged within 3 s in every run, and never fewer than the bare bot): ${met ? 'met' : 'not met'}`);
}

// The front's thread imports this same file (see startFront).
if (isMainThread) await main(optionsOf(process.argv.slice(2), process.env));
else await serveFront((workerData as { frontTarget: string }).frontTarget);

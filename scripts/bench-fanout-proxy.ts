/**
 * `npm run bench:fanout`: a feed fan-out from one bot process while another process sends
 * other REST requests, both through one REST proxy, under Discord's global limit enforced strictly.
 *
 * Per run:
 * - A fake Discord (test/e2e/fake-discord.ts) in this process with `globalLimit: 50` a second: a
 *   bot-token request that would make a 51st in any sliding second is answered 429 with
 *   `Retry-After`, `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`, and not counted.
 * - The REST proxy as production runs it: `npm run build` once, then `node <build>/rest-proxy.js`
 *   (from a copy of the build, as scripts/bench.ts runs the bot) with DISCORD_API_URL at the fake.
 * - Two "bot processes", child processes running this file with `--role`: each builds the bot's real
 *   discord.js client with `createDiscordClient({ apiUrl, proxyUrl })` (src/discord/runtime.ts) and uses
 *   its REST only (no gateway: shards do not change the REST path). The feed leader posts one message to
 *   each of `--channels` channels, `FAN_OUT_CONCURRENCY` (8, src/feeds/poller.ts) at a time, as the
 *   poller does; the other process sends `--trickle` requests a second (`GET /channels/{id}`, the
 *   /config channel check's first request) inside an interaction deadline, as another cluster's
 *   handlers would, until the fan-out ends.
 * - The baseline, from the same run (skip it with `--no-baseline`): the same two processes with no
 *   proxy, each holding its own per-process budget (46 in any sliding second) straight to the fake, as
 *   before the proxy.
 *
 * Printed per run and mode: the fan-out's elapsed time, from "go" to the leader's last answer, beside
 * the floor of channels / 50 s and their ratio (the issue's goal: at most 1.1 × the floor, zero 429s), and
 * the ratio to the floor of the fan-out and the other process's requests together (they share the 50);
 * the 429s the fake answered; the most bot-token requests it let through in any sliding second; every
 * channel's message count (duplicates, missing); the other process's requests and their latency (p50,
 * max). With `--runs K`, min / median / max over the runs. The machine's load average comes first and
 * last: figures from a busy machine say little.
 *
 * Options: `--channels 10000`, `--runs 1`, `--trickle 2` (requests a second; 0: none), `--no-baseline`.
 * Exits 1 when a process fails to start or a run fails (with the last lines of its output), 2 on a bad
 * option. Internal: `--role fanout|trickle` runs one bot process (started by this script, over IPC).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const SELF = fileURLToPath(import.meta.url);
/** Discord's documented global limit, requests per second. */
const GLOBAL_PER_SECOND = 50;
const TOKEN = 'bench-fanout-token';
/** The first fan-out channel's id; channel n is this plus n (the fake takes a post to any channel). */
const FIRST_CHANNEL = 950_000_000_000_000_000n;

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------------------------------------------
// The bot processes (children)

/** Messages from the parent to a bot process. */
type Order = { go: true } | { stop: true };
/** Messages from a bot process to the parent. */
type Report =
  { ready: true } | { done: true; ms: number; failed: number; firstError?: string } | { stopped: true; sent: number; failed: number; latencies: number[] };

/**
 * One bot process: the bot's discord.js client, REST only, with the proxy or without (`--api` only).
 * `fanout` posts to `--channels` channels at the poller's concurrency on "go"; `trickle` sends `--rate`
 * channel checks a second, each in an interaction deadline, from "go" to "stop".
 */
async function runRole(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { role: { type: 'string' }, api: { type: 'string' }, proxy: { type: 'string' }, channels: { type: 'string' }, rate: { type: 'string' } },
  });
  const [{ createDiscordClient }, { FAN_OUT_CONCURRENCY }, { runWithDeadline }, { Routes }, { default: PQueue }, { CHANNEL_ID }] = await Promise.all([
    import('../src/discord/client.js'),
    import('../src/feeds/fan-out.js'),
    import('../src/core/deadline.js'),
    import('discord-api-types/v10'),
    import('p-queue'),
    import('../test/e2e/fake-discord.js'),
  ]);
  const send = (report: Report) => process.send!(report);
  const client = createDiscordClient(values.proxy ? { apiUrl: values.api!, proxyUrl: values.proxy } : { apiUrl: values.api! });
  client.rest.setToken(TOKEN);
  let stopTrickle: (() => Promise<void>) | undefined;
  process.on('message', (order: Order) => {
    if ('go' in order && values.role === 'fanout') {
      void (async () => {
        const started = performance.now();
        const queue = new PQueue({ concurrency: FAN_OUT_CONCURRENCY });
        let failed = 0;
        let firstError: string | undefined;
        const channels = Number(values.channels);
        for (let n = 0; n < channels; n++) {
          void queue.add(() =>
            client.rest
              .post(Routes.channelMessages(String(FIRST_CHANNEL + BigInt(n))), { body: { content: `patch notes, channel ${n}` } })
              .catch((err: unknown) => {
                failed++;
                firstError ??= (err as Error).message;
              }),
          );
        }
        await queue.onIdle();
        send({ done: true, ms: performance.now() - started, failed, ...(firstError ? { firstError } : {}) });
      })();
    } else if ('go' in order && values.role === 'trickle') {
      const rate = Number(values.rate);
      let sent = 0;
      let failed = 0;
      const latencies: number[] = [];
      const inflight = new Set<Promise<void>>();
      const timer =
        rate > 0
          ? setInterval(() => {
              sent++;
              const began = performance.now();
              const request = runWithDeadline(Date.now() + 10_000, () => client.rest.get(Routes.channel(CHANNEL_ID))).then(
                () => void latencies.push(performance.now() - began),
                () => void failed++,
              );
              inflight.add(request);
              void request.finally(() => inflight.delete(request));
            }, 1000 / rate)
          : undefined;
      stopTrickle = async () => {
        clearInterval(timer);
        await Promise.all([...inflight]);
        send({ stopped: true, sent, failed, latencies });
      };
    } else if ('stop' in order) {
      void stopTrickle?.();
    }
  });
  send({ ready: true });
}

// ---------------------------------------------------------------------------------------------------
// The bench (parent)

interface Options {
  channels: number;
  runs: number;
  trickle: number;
  baseline: boolean;
}

function optionsOf(argv: string[]): Options {
  const usage = 'usage: npm run bench:fanout -- [--channels 10000] [--runs 1] [--trickle 2] [--no-baseline]';
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { channels: { type: 'string' }, runs: { type: 'string' }, trickle: { type: 'string' }, 'no-baseline': { type: 'boolean' } },
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${usage}\n`);
    process.exit(2);
  }
  const o = {
    channels: Number(values.channels ?? 10_000),
    runs: Number(values.runs ?? 1),
    trickle: Number(values.trickle ?? 2),
    baseline: !values['no-baseline'],
  };
  if (
    !(Number.isInteger(o.channels) && o.channels >= 1 && o.channels <= 1_000_000) ||
    !(Number.isInteger(o.runs) && o.runs >= 1 && o.runs <= 100) ||
    !(o.trickle >= 0 && o.trickle <= 40)
  ) {
    process.stderr.write(`${usage}\n`);
    process.exit(2);
  }
  return o;
}

/** A child process with the tail of its output kept for error messages, and its IPC reports as a queue. */
interface Started {
  child: ChildProcess;
  tail(): string;
  next<T extends Report>(test: (r: Report) => r is T, what: string, timeoutMs: number): Promise<T>;
}

function startChild(args: string[], env: Record<string, string>, name: string, children: Set<ChildProcess>): Started {
  const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  children.add(child);
  let output = '';
  const keep = (c: Buffer) => (output = (output + c.toString()).slice(-4_000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const reports: Report[] = [];
  const waiters = new Set<() => void>();
  child.on('message', (r: Report) => {
    reports.push(r);
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    tail: () => output,
    async next(test, what, timeoutMs) {
      const end = performance.now() + timeoutMs;
      for (;;) {
        const at = reports.findIndex(test);
        if (at >= 0) return reports.splice(at, 1)[0] as never;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${what}\n${output}`);
        if (performance.now() > end) throw new Error(`${name}: no ${what} within ${timeoutMs / 1000} s\n${output}`);
        await Promise.race([new Promise<void>((resolve) => waiters.add(resolve)), exited, sleep(1_000)]);
        waiters.clear();
      }
    },
  };
}

/** The most of `times` (ms) within any sliding second. */
function mostInAnySecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= 1_000) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

const quantile = (values: number[], q: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

interface RunResult {
  elapsedMs: number;
  rateLimited: number;
  mostPerSecond: number;
  duplicates: number;
  missing: number;
  failed: number;
  trickle: { sent: number; failed: number; p50: number; max: number };
}

type Mode = 'proxy' | 'direct';

/** One fan-out with `mode`; `proxyArgs` runs the built proxy. */
async function runOnce(mode: Mode, o: Options, proxyArgs: string[], children: Set<ChildProcess>): Promise<RunResult> {
  const [{ startFakeDiscord }, { freePort }, { baseEnv }] = await Promise.all([
    import('../test/e2e/fake-discord.js'),
    import('../test/helpers/free-port.js'),
    import('./bench-support.js'),
  ]);
  const fake = await startFakeDiscord({ globalLimit: { perSecond: GLOBAL_PER_SECOND } });
  const started: Started[] = [];
  try {
    let proxyUrl: string | undefined;
    if (mode === 'proxy') {
      const port = await freePort();
      proxyUrl = `http://127.0.0.1:${port}`;
      const proxy = startChild(
        proxyArgs,
        { ...baseEnv(), DISCORD_TOKEN: TOKEN, DISCORD_API_URL: fake.apiUrl, REST_PROXY_PORT: String(port), LOG_LEVEL: 'warn' },
        'the REST proxy',
        children,
      );
      started.push(proxy);
      const end = performance.now() + 15_000;
      for (;;) {
        const up = await fetch(`${proxyUrl}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        if (performance.now() > end || proxy.child.exitCode !== null) throw new Error(`the REST proxy did not start\n${proxy.tail()}`);
        await sleep(100);
      }
    }
    const roleArgs = (role: string, extra: string[]) => [
      '--import',
      'tsx',
      SELF,
      '--role',
      role,
      '--api',
      fake.apiUrl,
      ...(proxyUrl ? ['--proxy', proxyUrl] : []),
      ...extra,
    ];
    const leader = startChild(roleArgs('fanout', ['--channels', String(o.channels)]), baseEnv(), 'the feed leader', children);
    const other = startChild(roleArgs('trickle', ['--rate', String(o.trickle)]), baseEnv(), 'the other process', children);
    started.push(leader, other);
    const isReady = (r: Report): r is { ready: true } => 'ready' in r;
    await Promise.all([leader.next(isReady, 'ready', 30_000), other.next(isReady, 'ready', 30_000)]);

    const callsBefore = fake.calls.length;
    const began = performance.now();
    other.child.send({ go: true } satisfies Order);
    leader.child.send({ go: true } satisfies Order);
    const done = await leader.next(
      (r): r is Extract<Report, { done: true }> => 'done' in r,
      'the end of the fan-out',
      (o.channels / GLOBAL_PER_SECOND) * 1000 * 3 + 60_000,
    );
    const elapsedMs = performance.now() - began;
    other.child.send({ stop: true } satisfies Order);
    const trickle = await other.next((r): r is Extract<Report, { stopped: true }> => 'stopped' in r, 'its report', 30_000);
    if (done.failed > 0) out(`    ${done.failed} posts failed; the first: ${done.firstError}`);

    const limited = new Set(fake.globalLimited);
    const counted = fake.calls.slice(callsBefore).filter((c) => c.authorization?.startsWith('Bot ') && !limited.has(c));
    let duplicates = 0;
    let missing = 0;
    for (let n = 0; n < o.channels; n++) {
      const got = fake.channelMessages.get(String(FIRST_CHANNEL + BigInt(n)))?.length ?? 0;
      if (got === 0) missing++;
      if (got > 1) duplicates += got - 1;
    }
    return {
      elapsedMs,
      rateLimited: fake.globalLimited.length,
      mostPerSecond: mostInAnySecond(counted.map((c) => c.at)),
      duplicates,
      missing,
      failed: done.failed,
      trickle: { sent: trickle.sent, failed: trickle.failed, p50: quantile(trickle.latencies, 0.5), max: Math.max(0, ...trickle.latencies) },
    };
  } finally {
    for (const s of started.reverse()) {
      if (s.child.exitCode === null && s.child.signalCode === null) {
        const gone = new Promise((resolve) => s.child.once('exit', resolve));
        s.child.kill('SIGTERM');
        await Promise.race([gone, sleep(12_000)]);
        if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      }
      children.delete(s.child);
    }
    await fake.close();
  }
}

async function bench(o: Options): Promise<void> {
  const { children, cleanUpOnExit, prepareBot } = await import('./bench-support.js');
  cleanUpOnExit(out);
  const floorMs = (o.channels / GLOBAL_PER_SECOND) * 1000;
  /** The floor when the other process's requests, which share the limit, are counted too. */
  const shareFloorMs = (r: RunResult) => ((o.channels + r.trickle.sent) / GLOBAL_PER_SECOND) * 1000;
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  out(
    `bench:fanout: ${o.runs} run${o.runs > 1 ? 's' : ''}; fan-out to ${int(o.channels)} channels from one bot process (floor ${secs(floorMs)} at ${GLOBAL_PER_SECOND}/s), ${o.trickle}/s channel checks from another; the fake allows ${GLOBAL_PER_SECOND} in any sliding second`,
  );
  out(`load average at start: ${load()}`);
  // The proxy as production runs it: built, from a copy of the build (scripts/bench-support.ts).
  // prepareBot's arguments end with the build's entry point, after the production node flags.
  const proxyArgs = [join(dirname(prepareBot(REPO).args.at(-1)!), 'rest-proxy.js')];
  out(`proxy: node ${proxyArgs.join(' ')}`);
  const modes: Mode[] = o.baseline ? ['proxy', 'direct'] : ['proxy'];
  const results = new Map<Mode, RunResult[]>(modes.map((m) => [m, []]));
  for (let run = 1; run <= o.runs; run++) {
    // Taking turns at going first, so neither always runs on a machine warmed by the other.
    for (const mode of run % 2 === 1 ? modes : [...modes].reverse()) {
      const r = await runOnce(mode, o, proxyArgs, children);
      results.get(mode)!.push(r);
      const label = mode === 'proxy' ? 'through the proxy' : 'direct (baseline)';
      out(
        `  run ${run}  ${label.padEnd(17)}  ${int(o.channels)} channels in ${secs(r.elapsedMs)} = ${(r.elapsedMs / floorMs).toFixed(3)} × the floor ` +
          `(${(r.elapsedMs / shareFloorMs(r)).toFixed(3)} × the floor of the fan-out and the other process's requests together); ${int(r.rateLimited)} × 429; ` +
          `most in any sliding second ${r.mostPerSecond}; ${r.missing ? `${int(r.missing)} MISSING, ` : ''}${r.duplicates ? `${int(r.duplicates)} DUPLICATES, ` : ''}` +
          `other process: ${int(r.trickle.sent)} checks (${r.trickle.failed} failed), p50 ${int(r.trickle.p50)} ms, max ${int(r.trickle.max)} ms`,
      );
    }
  }
  if (o.runs > 1) {
    out(`min / median / max over ${o.runs} runs:`);
    const mmm = (values: number[], f: (n: number) => string) => {
      const s = [...values].sort((a, b) => a - b);
      return `${f(s[0]!)} / ${f(s[Math.floor((s.length - 1) / 2)]!)} / ${f(s[s.length - 1]!)}`;
    };
    for (const [mode, rs] of results) {
      out(`  ${mode === 'proxy' ? 'through the proxy' : 'direct (baseline)'}`);
      out(
        `    elapsed            ${mmm(
          rs.map((r) => r.elapsedMs),
          secs,
        )}`,
      );
      out(
        `    × the floor        ${mmm(
          rs.map((r) => r.elapsedMs / floorMs),
          (n) => n.toFixed(3),
        )}`,
      );
      out(
        `    × the shared floor ${mmm(
          rs.map((r) => r.elapsedMs / shareFloorMs(r)),
          (n) => n.toFixed(3),
        )}`,
      );
      out(
        `    429s               ${mmm(
          rs.map((r) => r.rateLimited),
          int,
        )}`,
      );
      out(
        `    most per second    ${mmm(
          rs.map((r) => r.mostPerSecond),
          int,
        )}`,
      );
      out(
        `    other p50 / max ms ${mmm(
          rs.map((r) => r.trickle.p50),
          int,
        )} ; ${mmm(
          rs.map((r) => r.trickle.max),
          int,
        )}`,
      );
    }
  }
  out(`goal: at most 1.1 × the floor (${secs(floorMs * 1.1)}) and zero 429s through the proxy`);
  out(`load average at end: ${load()}`);
}

const argv = process.argv.slice(2);
if (argv.includes('--role')) {
  await runRole(argv);
} else {
  try {
    await bench(optionsOf(argv));
    process.exit(0);
  } catch (err) {
    process.stderr.write(`bench:fanout failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
}

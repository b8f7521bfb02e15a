/**
 * `npm run bench:api`: a realistic lookup workload through the cached client and through a plain
 * uncached client, against the replica with 50-300 ms of added latency, printed side by side.
 *
 * Workload: BENCH_REQUESTS (default 10 000) lookups drawn from a Zipf distribution (s = 1.1) over the
 * hero endpoints (detail, stats, costumes, leaderboard on each platform), the sample players (profile,
 * v1 and v2 history), the sample matches, and mistyped player names (not found), issued by
 * BENCH_CONCURRENCY (default 64) members at once. Bot traffic is simulated over time: the cache's clock
 * advances by an exponential gap (mean BENCH_GAP_MS, default 500 ms) per request, so TTLs expire as they
 * would over ~80 minutes of a busy bot. No rate limiter on either side: the figures compare caching only.
 */
import Keyv from 'keyv';
import { RivalsApi } from '../src/api/client.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { LruStore } from '../src/cache/store.js';
import { startReplica } from '../src/replica/server.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 500);

/** Deterministic PRNG so both clients see the same workload. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Call = (api: RivalsApi) => Promise<unknown>;

const replica = await startReplica({ apiKey: 'bench-key', faults: { latencyMs: [50, 300] } });
const heroes = replica.dataset.heroes.map((h) => String(h.name));
const players = [...replica.dataset.players.values()].map((p) => String(p.name));
const matches = [...replica.dataset.matches.keys()];

const calls: [string, Call][] = [];
for (const h of heroes) {
  calls.push([`hero ${h}`, (a) => a.hero(h)]);
  calls.push([`stats ${h}`, (a) => a.heroStats(h)]);
  calls.push([`costumes ${h}`, (a) => a.heroCostumes(h)]);
  for (const platform of ['pc', 'ps', 'xbox'] as const) calls.push([`leaderboard ${h} ${platform}`, (a) => a.heroLeaderboard(h, { platform })]);
}
for (const p of players) {
  calls.push([`player ${p}`, (a) => a.player(p)]);
  calls.push([`history v2 ${p}`, (a) => a.matchHistoryV2(p)]);
  calls.push([`history v1 ${p}`, (a) => a.matchHistoryV1(p)]);
}
for (const m of matches) calls.push([`match ${m}`, (a) => a.match(m)]);
const typos: [string, Call][] = Array.from({ length: 60 }, (_, i) => [`typo ${i}`, (a) => a.player(`no-such-player-${i}`)]);

// Zipf weights over a shuffled order, so the popular keys are a mix of every kind; each mistyped
// name is typed rarely, so the typos form the tail.
const order = rng(7);
const shuffled = [...calls.map((c) => [order(), c] as const).sort((x, y) => x[0] - y[0]).map(([, c]) => c), ...typos];
const weights = shuffled.map((_, k) => 1 / (k + 1) ** 1.1);
const total = weights.reduce((a, b) => a + b, 0);
const cumulative: number[] = [];
weights.reduce((acc, w, i) => (cumulative[i] = acc + w / total), 0);

function workload(): { call: Call; gap: number }[] {
  const r = rng(42);
  return Array.from({ length: REQUESTS }, () => {
    const u = r();
    const index = cumulative.findIndex((c) => c >= u);
    return { call: shuffled[index === -1 ? shuffled.length - 1 : index]![1], gap: -Math.log(1 - r()) * GAP_MS };
  });
}

interface Result {
  upstream: number;
  hitRatio: number;
  p50: number;
  p99: number;
  errors: number;
  seconds: number;
}

async function run(cached: boolean): Promise<Result> {
  const clock = { now: Date.now() };
  const cache = cached ? new ResponseCache({ store: new Keyv({ store: new LruStore(10_000) }), now: () => clock.now }) : undefined;
  const api = new RivalsApi({ baseUrl: replica.url, apiKey: 'bench-key', cache, now: () => clock.now });
  const jobs = workload();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      clock.now += job.gap;
      const t0 = performance.now();
      try {
        await job.call(api);
      } catch {
        errors++; // not-found typos are expected errors; they still count as served
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await api.close();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  const upstream = api.stats.upstreamRequests;
  return { upstream, hitRatio: 1 - upstream / jobs.length, p50: pct(50), p99: pct(99), errors, seconds: (performance.now() - started) / 1000 };
}

process.stdout.write(`bench:api: ${REQUESTS} Zipf lookups over ${shuffled.length} keys, ${CONCURRENCY} concurrent, replica latency 50-300 ms, simulated span ${((REQUESTS * GAP_MS) / 60_000).toFixed(0)} min\n`);
const uncached = await run(false);
const before = new Map(replica.requests.byPath);
const cached = await run(true);
await replica.close();

/** The cached run's upstream requests by endpoint kind (path with its ids replaced). */
const byKind = new Map<string, number>();
for (const [path, n] of replica.requests.byPath) {
  const kind = path.replace(/^\/api\/(v\d)\/heroes\/hero\/[^/]+/, '/api/$1/heroes/hero/:q').replace(/\/(leaderboard|player|match)\/[^/]+/, '/$1/:q');
  byKind.set(kind, (byKind.get(kind) ?? 0) + n - (before.get(path) ?? 0));
}

const rows: [string, (r: Result) => string][] = [
  ['upstream requests', (r) => String(r.upstream)],
  ['hit ratio', (r) => `${(r.hitRatio * 100).toFixed(1)} %`],
  ['p50 latency', (r) => `${r.p50.toFixed(1)} ms`],
  ['p99 latency', (r) => `${r.p99.toFixed(1)} ms`],
  ['not-found answers', (r) => String(r.errors)],
  ['wall time', (r) => `${r.seconds.toFixed(1)} s`],
];
const pad = (s: string, n: number) => s.padEnd(n);
process.stdout.write(`\n${pad('', 20)}${pad('uncached', 14)}cached\n`);
for (const [name, f] of rows) process.stdout.write(`${pad(name, 20)}${pad(f(uncached), 14)}${f(cached)}\n`);
const ratio = cached.upstream / uncached.upstream;
process.stdout.write('\ncached run, upstream requests by endpoint:\n');
for (const [kind, n] of [...byKind].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1])) process.stdout.write(`  ${String(n).padStart(5)}  ${kind}\n`);
process.stdout.write(`\ncached upstream requests are ${(ratio * 100).toFixed(1)} % of uncached (goal: at most 10 %)\n`);

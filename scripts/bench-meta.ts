/**
 * `npm run bench:meta`: how long after a start `/meta` has something to show, against the API replica
 * at the key's rate (`--rpm`, default 60, as `RIVALS_API_RPM`).
 *
 * (a) first gathering: no snapshot to serve, so the gathering runs at `gathering` priority, at the
 *     gathering share of the key's rate, two thirds (src/game/meta.ts).
 * (b) quarter-rate gathering, the baseline it replaces: the same gathering at `bulk` priority, held to
 *     a quarter of the rate (a HeroMeta that already serves a snapshot gathers that way).
 * (c) restart: open the SQLite store holding the last snapshot and read it back (`restore()`): the
 *     time until `/meta` can answer after a restart.
 * Each run measures (a) and (b) side by side, taking turns at going first, each with its own rate
 * limiter, response cache and client, so neither finds the other's answers or window.
 *
 * Options: `--runs 3`, `--rpm 60`, `--latency-ms 0` (added to every replica answer, to stand for the
 * real API's latency), `--only first,bulk,restore`. Figures: min / median / max over the runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Keyv from 'keyv';
import { pino } from 'pino';
import { RivalsApi } from '../src/api/client.js';
import { GATHERING_SHARE, shareCap, UpstreamRateLimiter } from '../src/api/rate-limiter.js';
import { ResponseCache } from '../src/cache/response-cache.js';
import { LruStore } from '../src/cache/store.js';
import { metaEtaMs, type MetaSnapshot, type MetaSnapshotStore } from '../src/game/meta.js';
import { HeroMeta } from '../src/jobs/hero-meta.js';
import { HeroDirectory } from '../src/catalog/hero-directory.js';
import { startReplica, type Replica } from '../src/replica/server.js';
import { openState } from '../src/store/state.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    rpm: { type: 'string', default: '60' },
    'latency-ms': { type: 'string', default: '0' },
    only: { type: 'string', default: 'first,bulk,restore' },
  },
});
const RUNS = Math.max(1, Number(values.runs));
const RPM = Math.max(1, Number(values.rpm));
const LATENCY_MS = Math.max(0, Number(values['latency-ms']));
const ONLY = new Set(values.only.split(',').map((s) => s.trim()));
const logger = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
const out = (line = '') => process.stdout.write(`${line}\n`);

/** A store that already holds a snapshot: the HeroMeta that reads it gathers at the bulk share. */
const holding = (snapshot: MetaSnapshot): MetaSnapshotStore => ({ latest: async () => snapshot, save: async () => undefined });

/** One gathering from a cold cache and an empty rate window; ms from refresh() to the snapshot. */
async function gather(replica: Replica, store?: MetaSnapshotStore): Promise<{ ms: number; snapshot: MetaSnapshot }> {
  const limiter = new UpstreamRateLimiter({ requestsPerMinute: RPM });
  const api = new RivalsApi({
    baseUrl: replica.url,
    apiKey: replica.apiKey,
    cache: new ResponseCache({ store: new Keyv({ store: new LruStore(1000) }) }),
    limiter,
    logger,
  });
  const meta = new HeroMeta({ api, heroes: new HeroDirectory(api), logger, requestsPerMinute: RPM, store });
  try {
    await meta.restore();
    const started = performance.now();
    const snapshot = await meta.refresh();
    return { ms: performance.now() - started, snapshot };
  } finally {
    await meta.stop();
    limiter.stop();
    await api.close();
  }
}

/** Opens a fresh SQLite store holding `snapshot`, closes it, then times a restart: open (migrations included) and restore. */
async function restart(snapshot: MetaSnapshot): Promise<{ openMs: number; restoreMs: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rivals-bench-meta-'));
  try {
    const first = await openState({ dataDir, logger });
    await first.heroMeta.save(snapshot);
    await first.close();
    const started = performance.now();
    const state = await openState({ dataDir, logger });
    const opened = performance.now();
    const meta = new HeroMeta({ api: undefined as never, heroes: undefined as never, logger, store: state.heroMeta });
    const restored = await meta.restore();
    const done = performance.now();
    if (restored?.answered !== snapshot.answered) throw new Error('the restored snapshot differs from the saved one');
    await state.close();
    return { openMs: opened - started, restoreMs: done - opened };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const seconds = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const millis = (ms: number) => `${ms.toFixed(1)} ms`;
const spread = (xs: number[], f: (n: number) => string) => `${f(Math.min(...xs))} / ${f(median(xs))} / ${f(Math.max(...xs))}`;

const replica = await startReplica({ logger, faults: LATENCY_MS > 0 ? { latencyMs: LATENCY_MS } : {} });
const heroes = replica.dataset.heroes.length;
out(`bench:meta: ${RUNS} run(s), ${heroes} heroes, RIVALS_API_RPM ${RPM}, replica latency ${LATENCY_MS} ms, node ${process.version}`);
out(`estimate /meta shows for the first gathering: ${seconds(metaEtaMs(heroes, shareCap(RPM, GATHERING_SHARE)))} (heroes / (2/3 x RPM) minutes)`);
const first: number[] = [];
const bulk: number[] = [];
let sample: MetaSnapshot | undefined;
for (let run = 0; run < RUNS; run++) {
  const order = run % 2 === 0 ? (['first', 'bulk'] as const) : (['bulk', 'first'] as const);
  for (const kind of order) {
    if (!ONLY.has(kind)) continue;
    if (kind === 'first') {
      const { ms, snapshot } = await gather(replica);
      sample = snapshot;
      first.push(ms);
      out(`  run ${run + 1}: first gathering (gathering share) ${seconds(ms)}, ${snapshot.answered}/${snapshot.total} heroes`);
    } else {
      const seed = sample ?? { rows: [], completedAt: 0, gatheredAt: 0, answered: 0, total: 0, missing: [], stale: false };
      const { ms, snapshot } = await gather(replica, holding(seed));
      bulk.push(ms);
      out(`  run ${run + 1}: quarter-rate gathering (bulk share) ${seconds(ms)}, ${snapshot.answered}/${snapshot.total} heroes`);
    }
  }
}
const restarts: { openMs: number; restoreMs: number }[] = [];
if (ONLY.has('restore')) {
  sample ??= (await gather(replica)).snapshot;
  for (let run = 0; run < RUNS; run++) restarts.push(await restart(sample));
}
await replica.close();

out();
out('| | min / median / max |');
out('|---|---:|');
if (first.length) out(`| first gathering, two thirds of the rate (gathering priority) | ${spread(first, seconds)} |`);
if (bulk.length) out(`| quarter-rate gathering (bulk share), the baseline | ${spread(bulk, seconds)} |`);
if (first.length && bulk.length) out(`| ratio of medians | ${(median(first) / median(bulk)).toFixed(3)}× |`);
if (restarts.length) {
  out(
    `| restart: open the SQLite store (migrations, quick_check) | ${spread(
      restarts.map((r) => r.openMs),
      millis,
    )} |`,
  );
  out(
    `| restart: read the saved snapshot back | ${spread(
      restarts.map((r) => r.restoreMs),
      millis,
    )} |`,
  );
}

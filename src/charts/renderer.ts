/**
 * The chart renderer the bot uses: a piscina pool of worker threads that draw chart specs to PNGs
 * (src/charts/worker.ts), so that no chart is ever drawn on the main event loop.
 *
 * Lean by default (the bot has a memory goal): no thread, and not even piscina or chart.js loaded,
 * until the first render; at most `maxThreads` threads (1 by default); each exits after
 * `idleTimeoutMs` without work. Specs are checked here, before any thread is involved, so a bad
 * spec fails fast with a clear {@link ChartSpecError}.
 *
 * Threads are also renewed every `recycleAfter` renders: @napi-rs/canvas 1.1.1 keeps native memory
 * for each chart drawn for as long as the thread that drew it lives (scripts/bench-charts.ts, 1,000
 * charts one after another: with one thread the process grew from 208 MB of RSS after 100 charts to
 * 267 MB and kept growing; renewed every 100 charts it stayed between 202 and 226 MB). The renderer
 * then sends the next renders to a new pool and closes the old one once its renders are done, so
 * no render fails; the first render on a new thread waits for the thread to start (0.3 to 0.8 s).
 *
 * The worker file is found the way the code runs:
 * - the build (scripts/build.mjs): this module is bundled into dist/ and the worker is its own entry
 *   point, dist/chart-worker.js, beside the bundle's chunks;
 * - tsx (`npm run dev`) and vitest: src/charts/worker.ts, loaded in the thread through tsx's loader.
 */
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import { parseChartSpec, type ChartSpec } from './specs.js';

/** Draws chart specs to PNGs off the main thread. */
export interface ChartRenderer {
  /**
   * The PNG of `spec` (at most 1,600 × 900 px and 8 MB; 800 × 450 today).
   * @param options.signal aborts the render: a queued one is dropped, a running one's thread is ended
   *   (the pool starts another when needed).
   * @throws {ChartSpecError} at once when `spec` is not a valid chart spec (nothing is queued).
   * @throws {ChartRenderError} when the render was aborted (`reason: 'aborted'`), the renderer is
   *   closed (`'closed'`), or the worker failed or died (`'failed'`, with the worker's error as `cause`).
   */
  render(spec: ChartSpec, options?: { signal?: AbortSignal }): Promise<Buffer>;
  /**
   * Refuses new renders (they reject with `'closed'`), waits up to 5 s for those already asked for
   * (queued ones too), then ends the threads; a render still unfinished then rejects with `'closed'`.
   * Safe to call twice.
   */
  close(): Promise<void>;
  /** Worker threads alive now: 0 before the first render and after the idle timeout. */
  readonly threads: number;
}

/** The pool-backed {@link ChartRenderer} of {@link createChartRenderer}, with its thread count for logs and tests. */
export interface PooledChartRenderer extends ChartRenderer {
  /** Worker threads started so far (a thread is started on demand, after an idle exit, an abort, or a renewal). */
  readonly threadsStarted: number;
}

/** Options of {@link createChartRenderer}. */
export interface ChartRendererOptions {
  /** Most worker threads drawing at once; default 1 (a chart takes tens of milliseconds; more threads cost memory). */
  maxThreads?: number;
  /** Milliseconds a thread may sit idle before it exits; default 30,000. */
  idleTimeoutMs?: number;
  /** Renders after which the threads are renewed (see the module's documentation); default 100. */
  recycleAfter?: number;
  /**
   * Told of the pool's errors that belong to no render (a worker thread failing between tasks, a
   * close running out of time), e.g. to log them; they are dropped without it. A render's own
   * failure rejects that render instead.
   */
  onError?: (err: unknown) => void;
}

/** Why a render did not give a PNG. */
export type ChartRenderFailure = 'aborted' | 'closed' | 'failed';

/** A render that did not give a PNG; `cause` holds the underlying error (the worker's, or the abort reason). */
export class ChartRenderError extends Error {
  override name = 'ChartRenderError';
  constructor(
    readonly reason: ChartRenderFailure,
    readonly kind: string,
    options?: { cause?: unknown },
  ) {
    const why = reason === 'aborted' ? 'was aborted' : reason === 'closed' ? 'was asked after the renderer closed' : `failed: ${messageOf(options?.cause)}`;
    super(`chart render (${kind}) ${why}`, options);
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Milliseconds `close()` lets the renders already asked for finish before the threads are ended. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * The worker's file and the Node options its thread needs, for the module at `moduleUrl`: from the
 * build (a `.js` chunk in dist/), the built worker beside it, dist/chart-worker.js; from the
 * TypeScript source (tsx, vitest), src/charts/worker.ts with tsx's loader in the thread.
 */
export function workerEntryFor(moduleUrl: string): { filename: string; execArgv?: string[] } {
  if (!moduleUrl.endsWith('.ts')) return { filename: fileURLToPath(new URL('./chart-worker.js', moduleUrl)) };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: fileURLToPath(new URL('./worker.ts', moduleUrl)), execArgv: ['--import', tsx] };
}

/** {@link workerEntryFor} this module. */
function workerEntry(): { filename: string; execArgv?: string[] } {
  // This chunk's own URL. The build rewrites the literal `import.meta.url` to the source file's place
  // (for modules that read files beside them), so it is read through `import.meta` as an object here.
  const { url } = import.meta;
  return workerEntryFor(url);
}

/** A pool and the renders sent to it; retired after `recycleAfter` renders, closed when its last render settles. */
interface Generation {
  pool: Piscina;
  /** Renders sent to it so far. */
  renders: number;
  /** Its renders not settled yet. */
  inFlight: number;
  retired: boolean;
}

/**
 * A chart renderer backed by piscina pools that start on the first render (see the module's
 * documentation). Nothing is loaded or started by this call.
 * @throws RangeError when `maxThreads` or `recycleAfter` is not a whole number ≥ 1, or `idleTimeoutMs` is negative.
 */
export function createChartRenderer(options: ChartRendererOptions = {}): PooledChartRenderer {
  const maxThreads = options.maxThreads ?? 1;
  const idleTimeout = options.idleTimeoutMs ?? 30_000;
  const recycleAfter = options.recycleAfter ?? 100;
  if (!Number.isInteger(maxThreads) || maxThreads < 1) throw new RangeError(`maxThreads must be a whole number ≥ 1, not ${maxThreads}`);
  if (!Number.isInteger(recycleAfter) || recycleAfter < 1) throw new RangeError(`recycleAfter must be a whole number ≥ 1, not ${recycleAfter}`);
  if (!(idleTimeout >= 0)) throw new RangeError(`idleTimeoutMs must be ≥ 0, not ${idleTimeout}`);

  let piscina: Promise<{ Piscina: typeof Piscina }> | undefined;
  let current: Generation | undefined;
  /** Every pool not closed yet: the current one and those retiring. */
  const pools = new Set<Piscina>();
  let threadsStarted = 0;
  let closed = false;
  /** Renders asked for and not settled, for `close()` to wait on. */
  const pending = new Set<Promise<unknown>>();

  /** Pools being closed, so a pool is closed once however many ask. */
  const closing = new WeakMap<Piscina, Promise<void>>();
  const closePool = (pool: Piscina): Promise<void> => {
    let done = closing.get(pool);
    if (!done) {
      done = pool
        .close({ force: true })
        .catch((err: unknown) => options.onError?.(err))
        .finally(() => pools.delete(pool));
      closing.set(pool, done);
    }
    return done;
  };

  /**
   * The generation to send a render to, with the render counted (in the same step, so renders asked
   * for at once are spread): a new one on the first render and after `recycleAfter`.
   */
  const generation = async (): Promise<Generation> => {
    const { Piscina } = await (piscina ??= import('piscina'));
    // close() ran out of patience with this render while piscina loaded: start nothing new.
    if (closed) throw new Error('renderer closed');
    if (current && current.renders >= recycleAfter) {
      // Retire it: it gets no more renders, and closes once those it has are done (see `release`).
      current.retired = true;
      if (current.inFlight === 0) void closePool(current.pool);
      current = undefined;
    }
    if (!current) {
      const pool = new Piscina({
        ...workerEntry(),
        minThreads: 0,
        maxThreads,
        idleTimeout,
        // close() has already waited for the renders; a task still running after that gets 1 s more.
        closeTimeout: 1_000,
        // A small young generation: about 20 MB less RSS per thread for about 3 ms more per chart
        // (100 charts from dist/, measured). The old generation's cap fits the largest spec allowed
        // (test/charts/renderer.test.ts draws it).
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      });
      // Without a listener an 'error' event would be thrown on the main thread.
      pool.on('error', (err: unknown) => options.onError?.(err));
      pool.on('workerCreate', () => threadsStarted++);
      pools.add(pool);
      current = { pool, renders: 0, inFlight: 0, retired: false };
    }
    current.renders++;
    current.inFlight++;
    return current;
  };

  /** A render of `gen` settled: the last one of a retired generation closes its pool. */
  const release = (gen: Generation) => {
    gen.inFlight--;
    if (gen.retired && gen.inFlight === 0) void closePool(gen.pool);
  };

  const run = async (valid: ChartSpec, signal: AbortSignal | undefined): Promise<Buffer> => {
    try {
      const gen = await generation();
      try {
        const bytes = (await gen.pool.run(valid, signal ? { signal } : {})) as Uint8Array;
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } finally {
        release(gen);
      }
    } catch (err) {
      if (signal?.aborted) throw new ChartRenderError('aborted', valid.kind, { cause: signal.reason });
      if (closed) throw new ChartRenderError('closed', valid.kind, { cause: err });
      throw new ChartRenderError('failed', valid.kind, { cause: err });
    }
  };

  return {
    async render(spec, { signal } = {}) {
      const valid = parseChartSpec(spec);
      if (closed) throw new ChartRenderError('closed', valid.kind);
      if (signal?.aborted) throw new ChartRenderError('aborted', valid.kind, { cause: signal.reason });
      const rendering = run(valid, signal);
      pending.add(rendering);
      try {
        return await rendering;
      } finally {
        pending.delete(rendering);
      }
    },
    async close() {
      closed = true;
      if (pending.size > 0) {
        const grace = new AbortController();
        await Promise.race([Promise.allSettled([...pending]), delay(CLOSE_TIMEOUT_MS, undefined, { signal: grace.signal, ref: false }).catch(() => undefined)]);
        grace.abort();
      }
      current = undefined;
      await Promise.all([...pools].map(closePool));
    },
    get threads() {
      let n = 0;
      for (const pool of pools) n += pool.threads.length;
      return n;
    },
    get threadsStarted() {
      return threadsStarted;
    },
  };
}

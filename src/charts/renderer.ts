/**
 * Draws chart specs to PNGs in piscina worker threads, never on the main event loop. Lean: nothing is
 * loaded until the first render. Threads are renewed every `recycleAfter` renders because @napi-rs/canvas
 * keeps native memory per chart for the life of the thread that drew it.
 */
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Piscina } from 'piscina';
import { parseChartSpec, type ChartSpec } from './specs.js';

export interface ChartRenderer {
  /**
   * The PNG of `spec`, within the chart `LIMITS`.
   * @param options.signal aborts the render: a queued one is dropped, a running one's thread is ended.
   * @throws {ChartSpecError} at once when `spec` is not a valid chart spec (nothing is queued).
   * @throws {ChartRenderError} with `reason` `'aborted'`, `'closed'`, or `'failed'` (the worker's error as `cause`).
   */
  render(spec: ChartSpec, options?: { signal?: AbortSignal }): Promise<Buffer>;
  /**
   * Starts a drawing thread and has it load what drawing needs, when none is running, so that a render asked for
   * soon after does not wait for the thread to start (about 150 ms on a 2-core machine). Never throws; optional.
   */
  warm?(): void;
  /** Refuses new renders, waits up to {@link CLOSE_TIMEOUT_MS} for those asked for, then ends the threads. Idempotent. */
  close(): Promise<void>;
  readonly threads: number;
}

export interface PooledChartRenderer extends ChartRenderer {
  /** Counts restarts after an idle exit, an abort or a renewal. */
  readonly threadsStarted: number;
}

export interface ChartRendererOptions {
  /** Default 1: more threads cost memory. */
  maxThreads?: number;
  /** Default 30,000. */
  idleTimeoutMs?: number;
  /** Default 100. */
  recycleAfter?: number;
  /** Pool errors that belong to no render; dropped without it. */
  onError?: (err: unknown) => void;
}

export type ChartRenderFailure = 'aborted' | 'closed' | 'failed';

/** `cause` is the worker's error or the abort reason. */
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

const CLOSE_TIMEOUT_MS = 5_000;

/** dist/chart-worker.js beside a built chunk; from source (tsx, vitest), worker.ts with tsx's loader. */
export function workerEntryFor(moduleUrl: string): { filename: string; execArgv?: string[] } {
  if (!moduleUrl.endsWith('.ts')) return { filename: fileURLToPath(new URL('./chart-worker.js', moduleUrl)) };
  const tsx = pathToFileURL(createRequire(moduleUrl).resolve('tsx')).href;
  return { filename: fileURLToPath(new URL('./worker.ts', moduleUrl)), execArgv: ['--import', tsx] };
}

function workerEntry(): { filename: string; execArgv?: string[] } {
  // Not the literal `import.meta.url`: the build rewrites that to the source file's place.
  const { url } = import.meta;
  return workerEntryFor(url);
}

/** Retired after `recycleAfter` renders, closed when its last render settles. */
interface Generation {
  pool: Piscina;
  renders: number;
  inFlight: number;
  retired: boolean;
}

/**
 * Nothing is loaded or started by this call.
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
  const pools = new Set<Piscina>();
  let threadsStarted = 0;
  let closed = false;
  const pending = new Set<Promise<unknown>>();
  /** The warm-up under way: a second one meanwhile would only queue behind it. */
  let warming: Promise<void> | undefined;

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

  // Counts the render in the same step, so renders asked for at once are spread; a warm-up is not a render.
  const generation = async (render = true): Promise<Generation> => {
    const { Piscina } = await (piscina ??= import('piscina'));
    // close() ran out of patience with this render while piscina loaded: start nothing new.
    if (closed) throw new Error('renderer closed');
    if (current && current.renders >= recycleAfter) {
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
        // A small young generation trades a little speed for RSS; the old one fits the largest spec allowed.
        resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 },
      });
      // Without a listener an 'error' event would be thrown on the main thread.
      pool.on('error', (err: unknown) => options.onError?.(err));
      pool.on('workerCreate', () => threadsStarted++);
      pools.add(pool);
      current = { pool, renders: 0, inFlight: 0, retired: false };
    }
    if (render) current.renders++;
    current.inFlight++;
    return current;
  };

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
    warm() {
      if (closed || warming || (current && current.pool.threads.length > 0)) return;
      const started = generation(false).then(async (gen) => {
        try {
          await gen.pool.run(null, { name: 'warm' });
        } finally {
          release(gen);
        }
      });
      warming = started;
      pending.add(started);
      started
        .catch((err: unknown) => {
          if (!closed) options.onError?.(err);
        })
        .finally(() => {
          pending.delete(started);
          warming = undefined;
        });
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

/**
 * The chart renderer the bot uses: a piscina pool of worker threads that draw chart specs to PNGs
 * (src/charts/worker.ts), so that no chart is ever drawn on the main event loop.
 *
 * Lean by default (the bot has a memory goal): no thread, and not even piscina or chart.js loaded,
 * until the first render; at most `maxThreads` threads (1 by default); each exits after
 * `idleTimeoutMs` without work. Specs are checked here, before any thread is involved, so a bad
 * spec fails fast with a clear {@link ChartSpecError}.
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
   * The PNG of `spec` (at most 1,600 × 900 px and 8 MB; 1,000 × 560 today).
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

/** Options of {@link createChartRenderer}. */
export interface ChartRendererOptions {
  /** Most worker threads drawing at once; default 1 (a chart takes tens of milliseconds; more threads cost memory). */
  maxThreads?: number;
  /** Milliseconds a thread may sit idle before it exits; default 30,000. */
  idleTimeoutMs?: number;
  /**
   * Told of the pool's errors that belong to no render (a worker thread failing between tasks, close
   * running out of time), e.g. to log them; they are dropped without it. A render's own failure
   * rejects that render instead.
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

/**
 * A chart renderer backed by a piscina pool that starts on the first render (see the module's
 * documentation). Nothing is loaded or started by this call.
 * @throws RangeError when `maxThreads` is not a whole number ≥ 1 or `idleTimeoutMs` is negative.
 */
export function createChartRenderer(options: ChartRendererOptions = {}): ChartRenderer {
  const maxThreads = options.maxThreads ?? 1;
  const idleTimeout = options.idleTimeoutMs ?? 30_000;
  if (!Number.isInteger(maxThreads) || maxThreads < 1) throw new RangeError(`maxThreads must be a whole number ≥ 1, not ${maxThreads}`);
  if (!(idleTimeout >= 0)) throw new RangeError(`idleTimeoutMs must be ≥ 0, not ${idleTimeout}`);

  let pool: Promise<Piscina> | undefined;
  let started: Piscina | undefined;
  let closed = false;
  /** Renders asked for and not settled, for `close()` to wait on. */
  const pending = new Set<Promise<unknown>>();

  const start = () =>
    (pool ??= import('piscina').then(({ Piscina }) => {
      started = new Piscina({
        ...workerEntry(),
        minThreads: 0,
        maxThreads,
        idleTimeout,
        // close() has already waited for the renders; a task still running after that gets 1 s more.
        closeTimeout: 1_000,
      });
      // Without a listener an 'error' event would be thrown on the main thread.
      started.on('error', (err: unknown) => options.onError?.(err));
      return started;
    }));

  const run = async (valid: ChartSpec, signal: AbortSignal | undefined): Promise<Buffer> => {
    try {
      const piscina = await start();
      const bytes = (await piscina.run(valid, signal ? { signal } : {})) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
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
      if (!pool) return;
      const grace = new AbortController();
      await Promise.race([Promise.allSettled([...pending]), delay(CLOSE_TIMEOUT_MS, undefined, { signal: grace.signal, ref: false }).catch(() => undefined)]);
      grace.abort();
      await (await pool).close({ force: true });
    },
    get threads() {
      return started?.threads.length ?? 0;
    },
  };
}

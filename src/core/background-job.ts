/**
 * A background job run off every interaction's deadline (src/core/deadline.ts `runWithoutDeadline`):
 * single-flight (a run asked for while one is under way joins it), started on an unref'd timer that
 * never keeps the process alive, and stopped with a bounded wait. The balance indexer and the mains
 * refresh run on it.
 */
import pTimeout from 'p-timeout';
import { runWithoutDeadline } from './deadline.js';

/**
 * Settles as `work` does, or rejects with `signal.reason` as soon as `signal` is aborted, whichever
 * comes first. `work` itself goes on: a background job gives up waiting for an API read this way
 * rather than by passing its signal to the read, because a member's command may have joined that read
 * (the response cache's single flight, src/cache/response-cache.ts) and must still get its answer. A
 * rejection of `work` after the abort is dropped here (the joined callers see it themselves).
 */
export function abandonOn<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const abandon = () => {
      work.catch(() => undefined);
      reject(signal.reason as unknown);
    };
    signal.addEventListener('abort', abandon, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abandon);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', abandon);
        reject(err);
      },
    );
  });
}

/** Default bound of {@link BackgroundJob.stop}'s wait for a run under way (ms). */
export const JOB_STOP_WAIT_MS = 5_000;

/** One job: `work` is what a run does. */
export class BackgroundJob<T> {
  #running: Promise<T> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly work: () => Promise<T>) {}

  /** Whether a run is under way. */
  get running(): boolean {
    return this.#running !== undefined;
  }

  /** Whether {@link stop} was called since the last {@link start}. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Runs the job once, or joins the run under way. Rejects as `work` does. */
  run(): Promise<T> {
    if (!this.#running) {
      this.#running = runWithoutDeadline(this.work).finally(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  /**
   * Runs now, then `intervalMs` after each run ends, until {@link stop}; a run's failure goes to
   * `onError` and the next run still comes. `run` is what each turn calls (default {@link run}; an
   * owner passes its own public method, so what it wraps around the job applies to timed runs too).
   * `when` is asked at each turn: a turn it answers false (or rejects, which goes to `onError`) is
   * skipped, and the next turn comes `intervalMs` later. The hourly jobs that write the shared store
   * run only in the process that leads (src/index.ts).
   */
  start(
    intervalMs: number,
    onError: (err: unknown) => void = () => undefined,
    run: () => Promise<unknown> = () => this.run(),
    when: () => Promise<boolean> = async () => true,
  ): void {
    clearTimeout(this.#timer);
    this.#stopped = false;
    const loop = async () => {
      if (this.#stopped) return;
      const due = await when().catch((err: unknown) => (onError(err), false));
      if (this.#stopped) return;
      if (due) await run().catch(onError);
      if (this.#stopped) return;
      this.#timer = setTimeout(() => void loop(), intervalMs);
      this.#timer.unref();
    };
    void loop();
  }

  /** Stops the timer and waits for a run under way, at most `waitMs`; the run is not cancelled by this (its owner cancels what it can first). */
  async stop(waitMs = JOB_STOP_WAIT_MS): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const running = this.#running;
    if (running) await pTimeout(running, { milliseconds: waitMs, fallback: () => undefined }).catch(() => undefined);
  }
}

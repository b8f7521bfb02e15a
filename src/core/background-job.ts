/** A single-flight background job on an unref'd timer, run outside any interaction's deadline, with a bounded stop. */
import pTimeout from 'p-timeout';
import { runWithoutDeadline } from './deadline.js';

/**
 * Settles as `work` does, or rejects with `signal.reason` once `signal` aborts; `work` goes on, because a member's
 * command may have joined the same read (the response cache's single flight) and must still get its answer.
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

/** Default bound of {@link BackgroundJob.stop}'s wait, ms. */
export const JOB_STOP_WAIT_MS = 5_000;

export class BackgroundJob<T> {
  #running: Promise<T> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(private readonly work: () => Promise<T>) {}

  get running(): boolean {
    return this.#running !== undefined;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Runs once, or joins the run under way; rejects as `work` does. */
  run(): Promise<T> {
    if (!this.#running) {
      this.#running = runWithoutDeadline(this.work).finally(() => {
        this.#running = undefined;
      });
    }
    return this.#running;
  }

  /**
   * Runs now, then `intervalMs` after each run ends, until {@link stop}; failures go to `onError`. `run` lets an owner
   * wrap each turn; a turn `when` answers false for is skipped (the hourly store writers run only in the leader).
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

  /** Stops the timer and waits up to `waitMs` for a run under way, without cancelling it. */
  async stop(waitMs = JOB_STOP_WAIT_MS): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    const running = this.#running;
    if (running) await pTimeout(running, { milliseconds: waitMs, fallback: () => undefined }).catch(() => undefined);
  }
}

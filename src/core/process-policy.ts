/**
 * What the process does with failures no caller handles, and how it stops (docs/operations.md, "Process policy"): an uncaught exception leaves
 * unknown state, so the process stops for a supervisor to restart; an unhandled rejection is logged and the process runs on, since
 * discord.js rejects that way on a malformed dispatch. Exit codes follow sysexits.h; 1 and 3 are config and store failures at start.
 */
import pTimeout, { TimeoutError } from 'p-timeout';
import type { Logger } from './logger.js';

export const EXIT_OK = 0;
/** sysexits.h EX_SOFTWARE: the process state is unknown. */
export const EXIT_UNCAUGHT_EXCEPTION = 70;
/** sysexits.h EX_CONFIG: a gateway close Discord documents as not reconnectable (4004, 4010-4014); config must change first. */
export const EXIT_GATEWAY_REFUSED = 78;

/** Default bound on a graceful stop, ms: above the runtime's wait for replies in flight, then the store closes. */
export const SHUTDOWN_TIMEOUT_MS = 12_000;

export interface ProcessPolicyOptions {
  logger: Logger;
  /** Bound on the graceful shutdown, ms; past it the process exits anyway. */
  shutdownTimeoutMs?: number;
  exit?: (code: number) => void;
  /** Warning names logged at debug, not warn, e.g. discord.js's `UnsupportedCacheOverwriteWarning` for caches turned off on purpose. */
  expectedWarnings?: readonly string[];
}

/** Fields added to the log line of an uncaught exception or unhandled rejection. */
export type ContextSource = () => unknown;

/** The process-level handlers and the one way to stop: construct after the logger, {@link install} once, then {@link setShutdown}. */
export class ProcessPolicy {
  readonly #logger: Logger;
  readonly #timeoutMs: number;
  readonly #exit: (code: number) => void;
  readonly #expectedWarnings: ReadonlySet<string>;
  #shutdown: (reason: string) => Promise<void> = async () => undefined;
  readonly #context = new Map<string, ContextSource>();
  #terminating: Promise<void> | undefined;
  #unhandledRejections = 0;
  #uncaughtExceptions = 0;

  constructor(options: ProcessPolicyOptions) {
    this.#logger = options.logger;
    this.#timeoutMs = options.shutdownTimeoutMs ?? SHUTDOWN_TIMEOUT_MS;
    this.#exit = options.exit ?? ((code) => process.exit(code));
    this.#expectedWarnings = new Set(options.expectedWarnings ?? []);
  }

  setShutdown(shutdown: (reason: string) => Promise<void>): void {
    this.#shutdown = shutdown;
  }

  /** Adds `name: source()` to each uncaught exception's and unhandled rejection's log line (e.g. the last gateway dispatch). */
  addContext(name: string, source: ContextSource): void {
    this.#context.set(name, source);
  }

  /** True once a stop has begun: closes and errors after it are the stop's own. */
  get terminating(): boolean {
    return this.#terminating !== undefined;
  }

  get unhandledRejections(): number {
    return this.#unhandledRejections;
  }

  /** Listens on `proc`, returns the remover; with a listener Node neither prints nor exits, so these own both. Warnings become JSON log lines. */
  install(proc: NodeJS.EventEmitter = process): () => void {
    const onException = (err: Error, origin: string) => this.uncaughtException(err, origin);
    const onRejection = (reason: unknown) => this.unhandledRejection(reason);
    const onWarning = (warning: Error) => this.warning(warning);
    const nodePrinters = proc.listeners('warning') as ((w: Error) => void)[];
    for (const printer of nodePrinters) proc.off('warning', printer);
    proc.on('uncaughtException', onException);
    proc.on('unhandledRejection', onRejection);
    proc.on('warning', onWarning);
    return () => {
      proc.off('uncaughtException', onException);
      proc.off('unhandledRejection', onRejection);
      proc.off('warning', onWarning);
      for (const printer of nodePrinters) proc.on('warning', printer);
    };
  }

  warning(warning: Error): void {
    const fields = { warning: { name: warning.name, message: warning.message } };
    if (this.#expectedWarnings.has(warning.name)) this.#logger.debug(fields, 'expected process warning');
    else this.#logger.warn(fields, `process warning: ${warning.message}`);
  }

  /** Logs at fatal and stops with {@link EXIT_UNCAUGHT_EXCEPTION}; one during a stop is only logged. */
  uncaughtException(err: unknown, origin = 'uncaughtException'): void {
    const n = ++this.#uncaughtExceptions;
    if (this.#terminating) {
      this.#logger.fatal({ err, origin, uncaughtExceptions: n, ...this.#contextFields() }, 'uncaught exception while stopping');
      return;
    }
    this.#logger.fatal(
      { err, origin, uncaughtExceptions: n, exitCode: EXIT_UNCAUGHT_EXCEPTION, ...this.#contextFields() },
      `uncaught exception: the process state is unknown, so it stops and exits ${EXIT_UNCAUGHT_EXCEPTION} (a supervisor restarts it)`,
    );
    void this.terminate(EXIT_UNCAUGHT_EXCEPTION, 'uncaught exception');
  }

  unhandledRejection(reason: unknown): void {
    const n = ++this.#unhandledRejections;
    const what = reason instanceof Error ? { err: reason } : { reason };
    this.#logger.error({ ...what, unhandledRejections: n, ...this.#contextFields() }, 'unhandled promise rejection: logged, and the bot keeps running');
  }

  /** Stops once, within the bound, then exits with `exitCode`, which says why it stopped, not how the shutdown went. Later calls share the first's promise. */
  terminate(exitCode: number, reason: string): Promise<void> {
    this.#terminating ??= (async () => {
      try {
        await pTimeout(
          Promise.resolve().then(() => this.#shutdown(reason)),
          { milliseconds: this.#timeoutMs },
        );
      } catch (err) {
        if (err instanceof TimeoutError)
          this.#logger.warn({ reason, timeoutMs: this.#timeoutMs }, `the shutdown did not finish within ${this.#timeoutMs / 1000} s: exiting anyway`);
        else this.#logger.error({ err, reason }, 'the shutdown failed: exiting anyway');
      }
      this.#logger.info({ exitCode, reason }, 'stopped');
      this.#logger.flush();
      await logWritten(this.#logger);
      this.#exit(exitCode);
    })();
    return this.#terminating;
  }

  #contextFields(): Record<string, unknown> {
    const fields: Record<string, unknown> = {};
    for (const [name, source] of this.#context) {
      try {
        const value = source();
        if (value !== undefined) fields[name] = value;
      } catch {
        // Context is a courtesy: it never stands in the way of the line it decorates.
      }
    }
    return fields;
  }
}

/** Resolves once the logger wrote every line, or after `boundMs`: pino writes asynchronously, and the last lines before an exit matter most. */
export function logWritten(logger: Logger, boundMs = 1_000): Promise<void> {
  const flushed = new Promise<void>((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve();
    }
  });
  return pTimeout(flushed, { milliseconds: boundMs, fallback: () => undefined });
}

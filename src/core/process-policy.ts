/**
 * The process policy (README "Process policy"): what the process does with a failure no caller can
 * handle, and how it stops.
 *
 * - An uncaught exception leaves the process in a state nobody knows (a synchronous path stopped
 *   half-way), so it is logged with its origin and the process stops gracefully, within a bound, and
 *   exits {@link EXIT_UNCAUGHT_EXCEPTION} for a supervisor to restart it.
 * - An unhandled promise rejection ends only the promise chain that rejected (its synchronous state
 *   ran to completion), so it is logged with a count and context and the process keeps running.
 *   Node's default (`--unhandled-rejections=throw`) would turn it into an uncaught exception and kill
 *   the process: discord.js rejects that way when a gateway dispatch is malformed.
 * - Every stop (a signal, a fatal gateway close, an uncaught exception, a failed login) goes through
 *   {@link ProcessPolicy.terminate}: one shutdown, bounded, then one exit code saying why.
 *
 * Exit codes follow sysexits.h where one fits and avoid Node's own (1 uncaught, 7, 9, 13...):
 * 0 stopped by a signal, 1 configuration or login refused at start, 3 state store unusable
 * (src/store/database.ts), {@link EXIT_UNCAUGHT_EXCEPTION} 70, {@link EXIT_GATEWAY_REFUSED} 78.
 */
import pTimeout, { TimeoutError } from 'p-timeout';
import type { Logger } from './logger.js';

/** Exit code of a stop asked for by SIGINT or SIGTERM. */
export const EXIT_OK = 0;
/**
 * Exit code after an uncaught exception: the process state is unknown (sysexits.h EX_SOFTWARE,
 * "an internal software error").
 */
export const EXIT_UNCAUGHT_EXCEPTION = 70;
/**
 * Exit code when Discord closes the gateway with a code it documents as not reconnectable (4004
 * authentication failed, 4010-4014): the token, intents or sharding must change before a restart
 * can work (sysexits.h EX_CONFIG, "something was found in an unconfigured or misconfigured state").
 */
export const EXIT_GATEWAY_REFUSED = 78;

/** The default bound on a graceful stop, ms: the runtime waits up to 10 s for replies in flight, then the store closes. */
export const SHUTDOWN_TIMEOUT_MS = 12_000;

export interface ProcessPolicyOptions {
  logger: Logger;
  /** Upper bound on the graceful shutdown, ms (default {@link SHUTDOWN_TIMEOUT_MS}); past it the process exits anyway. */
  shutdownTimeoutMs?: number;
  /** Ends the process (default `process.exit`); tests pass a recorder. */
  exit?: (code: number) => void;
  /**
   * Process warning names the bot expects and means (logged at debug, not warn), e.g. discord.js's
   * `UnsupportedCacheOverwriteWarning` for the caches it turns off on purpose (src/discord/runtime.ts).
   */
  expectedWarnings?: readonly string[];
}

/** Fields added to the log line of an uncaught exception or unhandled rejection. */
export type ContextSource = () => unknown;

/**
 * The process-level handlers and the one way to stop. Construct it right after the logger, call
 * {@link install} once, and {@link setShutdown} when the parts to stop exist.
 */
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

  /** The graceful stop `terminate` runs (stop the poller, finish replies, close the store); `reason` says why. */
  setShutdown(shutdown: (reason: string) => Promise<void>): void {
    this.#shutdown = shutdown;
  }

  /** Adds `name: source()` to the log line of every uncaught exception and unhandled rejection (e.g. the last gateway dispatch). */
  addContext(name: string, source: ContextSource): void {
    this.#context.set(name, source);
  }

  /** True once a stop has begun: closes and errors after it are the stop's own, not news. */
  get terminating(): boolean {
    return this.#terminating !== undefined;
  }

  /** Unhandled promise rejections seen since start. */
  get unhandledRejections(): number {
    return this.#unhandledRejections;
  }

  /**
   * Listens for `uncaughtException`, `unhandledRejection` and `warning` on `proc` (default `process`);
   * returns a function that removes the listeners. Node docs, "Process events": with a listener, Node
   * neither prints the error nor exits, so these handlers own both. Process warnings become log lines
   * (JSON, like every other line) instead of Node's text on stderr: Node's own printer is removed.
   */
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

  /** A process warning (`process.emitWarning`): one log line, at debug when its name is expected, else warn. */
  warning(warning: Error): void {
    const fields = { warning: { name: warning.name, message: warning.message } };
    if (this.#expectedWarnings.has(warning.name)) this.#logger.debug(fields, 'expected process warning');
    else this.#logger.warn(fields, `process warning: ${warning.message}`);
  }

  /**
   * An exception nothing caught: logs it at fatal with its origin (`uncaughtException`, or
   * `unhandledRejection` under `--unhandled-rejections=strict`) and context, then stops with
   * {@link EXIT_UNCAUGHT_EXCEPTION}. One during a stop is logged and the stop goes on.
   */
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

  /** A promise rejection nothing handled: logs it at error with a running count and context; the process keeps running. */
  unhandledRejection(reason: unknown): void {
    const n = ++this.#unhandledRejections;
    const what = reason instanceof Error ? { err: reason } : { reason };
    this.#logger.error({ ...what, unhandledRejections: n, ...this.#contextFields() }, 'unhandled promise rejection: logged, and the bot keeps running');
  }

  /**
   * Stops once: runs the shutdown for at most the bound, logs `stopped` with the exit code, flushes
   * the log and exits with `exitCode`. The exit code says why the process stopped, not how the
   * shutdown went (a shutdown that fails or overruns gets its own log line). Later calls return the
   * first call's promise.
   */
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

/**
 * Resolves when the logger's destination has written every line (pino's `logger.flush(callback)`),
 * or after `boundMs`. pino's default stdout destination (sonic-boom, `sync: false`) writes
 * asynchronously; at `process.exit` a line still in flight lands after later ones or not at all, and
 * the last lines before an exit are the ones an operator needs. Observed: the fatal line of an
 * uncaught exception printed after `stopped`.
 */
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

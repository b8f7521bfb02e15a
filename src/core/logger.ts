import { createRequire } from 'node:module';
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/**
 * Paths pino censors in every log line. Secrets can reach a log through a config object, request
 * headers or an error's request options; each of those shapes is listed.
 */
export const REDACT_PATHS = [
  'apiKey',
  'token',
  'password',
  '*.apiKey',
  '*.token',
  '*.password',
  'config.rivals.apiKey',
  'config.discord.token',
  'config.redisUrl',
  'headers["x-api-key"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers.authorization',
  'req.headers["x-api-key"]',
  'err.headers["x-api-key"]',
];

export interface LoggerOptions {
  level: string;
  /** Pretty, human-readable output; defaults to true when stdout is a TTY. */
  pretty?: boolean;
  /** Where to write (defaults to stdout); tests pass a stream to read the lines. */
  destination?: DestinationStream;
  /** Literal secret values to scrub from every line, whatever field they hide in (e.g. inside an error message). */
  secrets?: (string | undefined)[];
}

/**
 * Creates the process logger: JSON lines in production, pino-pretty on a TTY.
 * Secrets are removed twice: by path (pino redaction) and by value (any configured secret string
 * found anywhere in a serialised line is replaced with `[Redacted]`).
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= 4);
  // pino-pretty is a development package: a production install (the Docker image) run on a terminal logs JSON.
  const pretty = options.pretty ?? (process.stdout.isTTY && options.destination === undefined && installed('pino-pretty'));
  const base = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
    ...(secrets.length > 0 ? { hooks: { streamWrite: (line: string) => scrub(line, secrets) } } : {}),
  };
  if (options.destination) return pino(base, options.destination);
  // pino-pretty as a stream on this thread, not as a transport: a transport's worker thread finds its
  // files beside pino's own, which the production build (scripts/build.mjs) bundles.
  if (pretty) return pino(base, (createRequire(import.meta.url)('pino-pretty') as PrettyFactory)({ colorize: true, destination: 1, sync: true }));
  return pino(base);
}

/** pino-pretty's default export: a stream that writes each JSON line as coloured text (options as in its README). */
type PrettyFactory = (options: { colorize: boolean; destination: number; sync: boolean }) => DestinationStream;

/** Whether `name` can be loaded from here. */
function installed(name: string): boolean {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

function scrub(line: string, secrets: string[]): string {
  let out = line;
  for (const secret of secrets) {
    // A secret may sit in a JSON string, where quotes and backslashes are escaped.
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1)])) out = out.split(form).join('[Redacted]');
  }
  return out;
}

import { createRequire } from 'node:module';
import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Paths pino censors: secrets reach logs through config objects, request headers and errors' request options. */
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
  pretty?: boolean;
  destination?: DestinationStream;
  /** Literal secret values scrubbed from every line, wherever they hide (e.g. inside an error message). */
  secrets?: (string | undefined)[];
}

/** The process logger: JSON lines, or pino-pretty on a TTY; secrets removed by path (pino redaction) and by value. */
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
  // A stream on this thread, not a transport: a transport's worker looks for its files beside pino's, which the build bundles.
  if (pretty) return pino(base, (createRequire(import.meta.url)('pino-pretty') as PrettyFactory)({ colorize: true, destination: 1, sync: true }));
  return pino(base);
}

type PrettyFactory = (options: { colorize: boolean; destination: number; sync: boolean }) => DestinationStream;

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

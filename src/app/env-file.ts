/** The `.env` file of a self-hosted bot, read with Node's own loader (`process.loadEnvFile`) before the configuration. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** A `.env` that exists but cannot be read. */
export class EnvFileError extends Error {
  override name = 'EnvFileError';
}

/** The file read, relative to the working directory (where npm runs the scripts: the checkout). */
export const ENV_FILE = '.env';

/**
 * Reads `file` into `process.env` when it exists; a variable the process's environment already has keeps its value
 * (Node's loader never overrides one). @returns the absolute path read, or null when there is no such file.
 * @throws {EnvFileError} naming the file when it exists but cannot be read.
 */
export function loadEnvFile(file = ENV_FILE): string | null {
  const path = resolve(file);
  if (!existsSync(path)) return null;
  try {
    process.loadEnvFile(path);
  } catch (err) {
    throw new EnvFileError(`${path} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): fix or remove it`, { cause: err });
  }
  return path;
}

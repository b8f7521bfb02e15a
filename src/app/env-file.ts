/**
 * The environment of a self-hosted bot: the `.env` file, read with Node's own loader (`process.loadEnvFile`), and the
 * rule that a variable left empty is unset.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** A `.env` that exists but cannot be read. */
export class EnvFileError extends Error {
  override name = 'EnvFileError';
}

/** The file read, relative to the working directory (where npm runs the scripts: the checkout). */
export const ENV_FILE = '.env';

/**
 * Deletes from `env` every variable whose value is empty or only blanks, and returns their names. `.env.example`
 * leaves most lines empty, and libraries read some variables themselves (discord.js takes `SHARD_COUNT`, `SHARDS`
 * and `DISCORD_TOKEN` from `process.env`, and refuses an empty `SHARD_COUNT`): deleted, they are unset for everyone.
 */
export function dropEmptyVariables(env: NodeJS.ProcessEnv = process.env): string[] {
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') continue;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- an environment variable left empty
    delete env[name];
    dropped.push(name);
  }
  return dropped;
}

/**
 * Reads `file` into `process.env` when it exists; a variable the process's environment already has keeps its value
 * (Node's loader never overrides one). A variable left empty, in the file or in the process's environment, is unset
 * ({@link dropEmptyVariables}): an empty one in the shell does not hide the file's value.
 * @returns the absolute path read, or null when there is no such file.
 * @throws {EnvFileError} naming the file when it exists but cannot be read.
 */
export function loadEnvFile(file = ENV_FILE): string | null {
  dropEmptyVariables();
  const path = resolve(file);
  if (!existsSync(path)) return null;
  try {
    process.loadEnvFile(path);
  } catch (err) {
    throw new EnvFileError(`${path} could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}): fix or remove it`, { cause: err });
  }
  dropEmptyVariables();
  return path;
}

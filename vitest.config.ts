import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The test tiers: each starts only what its files use. A unit file runs alone in seconds, with no
 * PostgreSQL, Redis, Chromium or build; `npm test` runs every tier.
 */
const REDIS = [
  'test/api/shared-rate-limiter.test.ts',
  'test/api/shared-state.test.ts',
  'test/app/sharding/identify.test.ts',
  'test/cache/redis.test.ts',
  'test/cache/shared-flight.test.ts',
  'test/feeds/leadership.test.ts',
  'test/feeds/poll-signal.test.ts',
  'test/store/back-targets-redis.test.ts',
];
/** Files that need PostgreSQL (and some of them Redis too). */
const POSTGRES = [
  'test/feeds/corrections.test.ts',
  'test/feeds/digests.test.ts',
  'test/feeds/hero-alerts-delivery.test.ts',
  'test/feeds/poller.test.ts',
  'test/feeds/quiet-hours.test.ts',
  'test/feeds/store-failing.test.ts',
  'test/feeds/threads.test.ts',
  'test/helpers/postgres.test.ts',
  'test/jobs/balance-indexer.test.ts',
  'test/store/balance-history.test.ts',
  'test/store/durability.test.ts',
  'test/store/hero-meta.test.ts',
  'test/store/ladder.test.ts',
  'test/store/match-fetches.test.ts',
  'test/store/matches.test.ts',
  'test/store/rank-roles.test.ts',
  'test/store/repositories.test.ts',
  'test/store/scale.test.ts',
  'test/store/server-matches.test.ts',
  'test/store/settings-sync.test.ts',
  'test/store/tracking.test.ts',
];
/** Files that run the production build (dist/), most of them as a process beside PostgreSQL and Redis. */
const E2E = [
  'test/e2e/**/*.test.ts',
  'test/**/*.e2e.test.ts',
  'test/build.test.ts',
  'test/deployment.test.ts',
  'test/charts/dist-worker.test.ts',
  'test/charts/renderer.test.ts',
];
const BROWSER = ['test/**/*.browser.test.ts'];
/** Unit files that assert on process-wide state (a registered font), so they need a fresh module graph. */
const ISOLATED = ['test/charts/japanese.test.ts', 'test/charts/card-cuts.test.ts'];

/** Files of a minute or more, started first: one left for the end would run alone while the other workers idle. */
const LONGEST = ['test/e2e/feeds-crash.e2e.test.ts', 'test/cli.test.ts', 'test/feeds/poller.test.ts', 'test/e2e/sharding.e2e.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((path) => f.moduleId.endsWith(path));
      return i === -1 ? LONGEST.length : i;
    };
    // A stable sort: the rest keeps vitest's own order.
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Tests talk real HTTP over loopback and start real servers: give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files wait on loopback servers, child processes and polls rather than the CPU: four at once
    // keep both cores of a small machine busy (vitest's default would run one file at a time here).
    maxWorkers: 4,
    sequence: { sequencer: LongestFirst },
    projects: [
      // Unit files share one module graph per worker: importing it again for each file cost most of the tier's time.
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...REDIS, ...POSTGRES, ...E2E, ...BROWSER, ...ISOLATED], isolate: false },
      },
      { extends: true, test: { name: 'unit-isolated', include: ISOLATED } },
      { extends: true, test: { name: 'redis', include: REDIS, globalSetup: ['test/setup/redis.ts'] } },
      { extends: true, test: { name: 'postgres', include: POSTGRES, globalSetup: ['test/setup/postgres.ts', 'test/setup/redis.ts'] } },
      {
        extends: true,
        test: { name: 'e2e', include: E2E, exclude: BROWSER, globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts', 'test/setup/redis.ts'] },
      },
      { extends: true, test: { name: 'browser', include: BROWSER, globalSetup: ['test/setup/chromium.ts', 'test/setup/build.ts'] } },
    ],
  },
});

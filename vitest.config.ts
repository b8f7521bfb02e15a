import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Once a run: redis-server (installed when missing), Chromium, and a shared PostgreSQL server.
    globalSetup: ['test/global-setup.ts'],
    // Tests talk real HTTP over loopback and start real servers: give them room on a 2-core machine.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

import { defineConfig } from 'vitest/config';

// npm run test:proxy: tests that run Debian's nginx and pebble as child processes (docs/proxy.md).
// They are not in `npm test` because .ci/run installs nginx and pebble after that suite.
export default defineConfig({
  test: {
    include: ['apps/platform/test/proxy/**/*.e2e.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

import { defineConfig } from 'vitest/config';

// Browser tests: playwright-core driving Debian's Chromium (/usr/bin/chromium). One worker, long timeouts.
// Files share the worker's module cache (isolate: false: each file's imports are not loaded again) and
// the real platform's seeded data directory (the global setup's seed directory, real-platform.ts).
export default defineConfig({
  test: {
    include: ['apps/*/test/browser/**/*.browser.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    globalSetup: ['apps/frontend/test/support/browser-global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

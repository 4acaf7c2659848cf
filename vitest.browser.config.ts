import { defineConfig } from 'vitest/config';

// Browser tests: playwright-core driving Debian's Chromium (/usr/bin/chromium). One worker, long timeouts.
export default defineConfig({
  test: {
    include: ['apps/*/test/browser/**/*.browser.test.ts'],
    exclude: ['**/node_modules/**'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

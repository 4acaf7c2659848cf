import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
    ],
    // Browser tests have their own command (npm run test:browser); they need Chromium.
    // The proxy and certificate suites need Debian's nginx and pebble: npm run test:proxy (vitest.proxy.config.ts).
    exclude: ['**/node_modules/**', '**/*.browser.test.ts', 'apps/platform/test/proxy/**'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';

// Browser tests drive Debian's Chromium through playwright-core. Each file starts its own app, simulator
// and browser on random ports with its own temporary database, so files run side by side: most of a
// browser test's time is spent waiting for pages, and three at once overlap it (decision 025).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 3,
  },
});

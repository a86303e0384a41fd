import { defineConfig } from 'vitest/config';

// Browser tests drive Debian's Chromium through playwright-core. Each file starts its own app, simulator
// and browser on random ports with its own temporary database (and Redis prefix), so files run side by
// side: most of a browser test's time is spent waiting for pages, and three at once overlap it. As in the
// unit loop (vitest.config.ts), worker threads import the product once per worker rather than once per
// file, a fifth of the suite's CPU time (decision 025).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    fileParallelism: true,
    maxWorkers: 3,
  },
});

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
    // Hang guards, not speed checks: on a loaded CI machine (load 20+) a page with its chunks can take
    // seconds, and a test that signs in twice and opens a popup took over 60 s.
    testTimeout: 120_000,
    hookTimeout: 90_000,
    // expect.poll waits for what a page shows (a title set after its chunk runs, focus after a lazy page
    // renders); vitest's default of 1 s failed under load. Playwright's own waits allow 30 s.
    expect: { poll: { timeout: 15_000 } },
    pool: 'threads',
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    fileParallelism: true,
    maxWorkers: 3,
  },
});

import { defineConfig } from 'vitest/config';
import { longFilesFirst } from './vitest.config.ts';

/**
 * The slowest browser-test files, started first, longest first: a fresh clone has no durations cached and
 * vitest then starts the largest files first, so a small slow file started late holds the step open while
 * the other workers have nothing left. From a run of the step at load 15–25 (session 16, wall s):
 * a11y-data 217, payments 166, a11y 104, i18n 95, payments-demo 87, discover 85, owner-flows 72,
 * resilience 59, production 55, legal-i18n 50 (the next 11 files 34–48 s, the rest under 30). In that run
 * payments.test.ts, missing from the list then, started 12th of 27 and ended last but a few.
 */
const E2E_LONG_FILES = [
  'tests/e2e/a11y-data.test.ts',
  'tests/e2e/payments.test.ts',
  'tests/e2e/a11y.test.ts',
  'tests/e2e/i18n.test.ts',
  'tests/e2e/payments-demo.test.ts',
  'tests/e2e/discover.test.ts',
  'tests/e2e/owner-flows.test.ts',
  'tests/e2e/resilience.test.ts',
  'tests/e2e/production.test.ts',
  'tests/e2e/legal-i18n.test.ts',
];

// Browser tests drive Debian's Chromium through playwright-core. Each file starts its own app, simulator
// and browser on random ports with its own temporary database (and Redis prefix), so files run side by
// side: most of a browser test's time is spent waiting for pages, and four at once overlap it (three until
// session 16: on a quiet clean clone the step used 216 s of CPU in 354 s of wall time while the machine
// was half idle; decision 060, Session 16). As in the unit loop (vitest.config.ts), worker threads import
// the product once per worker rather than once per file, a fifth of the suite's CPU time (decision 025).
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
    maxWorkers: 4,
    sequence: { sequencer: longFilesFirst(E2E_LONG_FILES) },
  },
});

import { defineConfig } from 'vitest/config';
import { longFilesFirst } from './vitest.config.ts';

/**
 * The slowest browser-test files of the last clean-clone run (wall s, load 4–15: a11y-data 69, i18n 66,
 * payments-demo 62, owner-flows 57, legal-i18n 47, rewards-social 42, account 38, offline 34; a11y, the
 * same checks on other screens), started first, longest first. A fresh clone has no durations cached and
 * vitest then starts the largest files first: a11y-data was 22nd of 27 to start, a11y 27th, legal-i18n
 * 18th, so the slowest files were the last ones running while the other workers had nothing left.
 */
const E2E_LONG_FILES = [
  'tests/e2e/a11y-data.test.ts',
  'tests/e2e/i18n.test.ts',
  'tests/e2e/payments-demo.test.ts',
  'tests/e2e/owner-flows.test.ts',
  'tests/e2e/a11y.test.ts',
  'tests/e2e/legal-i18n.test.ts',
  'tests/e2e/rewards-social.test.ts',
  'tests/e2e/account.test.ts',
  'tests/e2e/offline.test.ts',
];

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
    sequence: { sequencer: longFilesFirst(E2E_LONG_FILES) },
  },
});

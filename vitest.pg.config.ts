import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import unit from './vitest.config.ts';

// `npm test`'s PostgreSQL step (decision 028 step 5, issue 16 item 3): the API and bot suites — every
// test file that starts the product through the test harness (src/test/harness.ts) — again with
// TEST_DB=pg, so each file's app runs on a fresh PostgreSQL database (src/test/pg.ts) instead of a SQLite
// file. The repositories' contract tests already run both engines in the unit step and are not repeated.

/**
 * Files not run again on PostgreSQL: about SQLite itself (the start-up `quick_check` of the SQLite file),
 * or about Discord's gateway and interaction timing with no database work of their own (close codes and
 * 3,000 guilds over 2 shards; the 3-second interaction deadline): the unit step runs them.
 */
export const SQLITE_ONLY: readonly string[] = [
  'src/db/integrity.test.ts',
  'src/bot/bot-gateway.test.ts',
  'src/bot/commands/deadline.test.ts',
];

function harnessSuites(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...harnessSuites(full));
    else if (entry.name.endsWith('.test.ts') && /test\/harness\.ts'/.test(readFileSync(full, 'utf8')))
      found.push(full);
  }
  return found;
}

const root = import.meta.dirname;
/**
 * Every test file that starts the product through the test harness: the API and bot suites. `npm run
 * check` leaves them out (vitest.check.config.ts); `npm test` runs them in its unit+api step and here.
 */
export const HARNESS_SUITES = [
  ...harnessSuites(path.join(root, 'src')),
  ...harnessSuites(path.join(root, 'scripts')),
]
  .map((file) => path.relative(root, file))
  .sort();
export const PG_SUITES = HARNESS_SUITES.filter((file) => !SQLITE_ONLY.includes(file));

// Not mergeConfig: it would add these files to the unit step's include list instead of replacing it.
export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    include: PG_SUITES,
    env: { TEST_DB: 'pg' },
    // More time per test than the unit step's (the same assertions; waits for the gateway and the pool,
    // not speed, are timed). Four files at once, the unit step's number: the step mostly waits (74.5 s of
    // CPU in 245 s on a quiet clean clone); alone at load 14–18, 4 workers took 205 s and 76.9 s of CPU
    // against 3 workers' 301 s and 74.0 s (decision 060, Session 16). Were the browser tests beside it to
    // time out under CI's load, this number is the first thing to lower.
    maxWorkers: 4,
    testTimeout: 45_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';
import unit from './vitest.config.ts';
import { HARNESS_SUITES } from './vitest.pg.config.ts';

// `npm run check`'s tests (issue 30 item 4: typecheck, lint, unit): the unit step without the files that
// start the product through the test harness (the API and bot integration suites, found as
// vitest.pg.config.ts finds them). `npm test` runs those in its unit+api step and again on PostgreSQL.
// A fresh process that imports the whole server through tsx (~8 s of CPU on a cold transform cache): what it
// checks (no node-postgres on SQLite) changes only with imports, which `npm test` sees.
const SLOW_IMPORT_PROBES = ['src/db/pg-lazy.test.ts'];

export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    exclude: [...(unit.test?.exclude ?? []), ...HARNESS_SUITES, ...SLOW_IMPORT_PROBES],
  },
});

import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files (mostly waiting: the gateway, interaction deadlines, rate-limit windows, the population
 * simulation), started first. Vitest orders by the last run's durations, but a fresh clone has none and it
 * then starts the largest files first: simulate-quick.test.ts and deadline.test.ts, small and long, started
 * last and held the run open (decision 025).
 */
const LONG_FILES = [
  'src/bot/bot-events.test.ts',
  'src/bot/bot-gateway.test.ts',
  'src/bot/commands/deadline.test.ts',
  'src/bot/removal-reasons.test.ts',
  'src/sim/discord/rate-limits.test.ts',
  'src/ops/redis-faults.test.ts',
  // In a clean clone's unit step (session 17, load ~16, 229 s) these started at 203 s and 175 s and took
  // 26 and 20 s: the first held the step open for its last 12 s, every other file having ended.
  'src/discord/global-limit-api.test.ts',
  'src/db/integrity.test.ts',
];

/**
 * Not unit tests but whole runs of the product: the population simulation (89 s of a 145 s unit step on a
 * loaded clean clone) and the fault drill's Redis stop (the product and a Redis server as child
 * processes). They are `npm test`'s "long runs" step (vitest.long.config.ts, `npm run test:long`),
 * beside the unit step; `npm run check` and `npm run test:unit` leave them out (decision 049).
 */
export const LONG_RUNS: readonly string[] = [
  'scripts/simulate/simulate-quick.test.ts',
  'scripts/drill/drill-quick.test.ts',
];

/**
 * A sequencer that starts `files` first, in that order, then the rest in vitest's own order. A fresh clone
 * has no durations cached, so vitest starts the largest files first; a small, slow file started last
 * holds its step open while the other workers idle. The browser tests use it too (vitest.e2e.config.ts).
 */
export function longFilesFirst(files: readonly string[]): typeof BaseSequencer {
  return class LongFilesFirst extends BaseSequencer {
    override async sort(specs: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (f: TestSpecification) => {
        const i = files.findIndex((p) => f.moduleId.endsWith(p));
        return i === -1 ? files.length : i;
      };
      const sorted = await super.sort(specs);
      return sorted
        .map((file, order) => ({ file, order }))
        .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
        .map(({ file }) => file);
    }
  };
}

export default defineConfig({
  resolve: {
    alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) },
  },
  test: {
    // web/src: pure browser-side logic (API errors, query keys, the claim scheduler); no DOM needed.
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.ts'],
    // The bench smoke test (a whole `npm run bench -- --quick`, minutes under load) and the long runs are
    // their own steps of `npm test` (vitest.bench-smoke.config.ts, vitest.long.config.ts), so the unit
    // loop stays fast.
    exclude: [...configDefaults.exclude, 'scripts/bench/bench-quick.test.ts', ...LONG_RUNS],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Worker threads start faster than forked processes; better-sqlite3 works in them and every test
    // file opens its own database, so nothing is shared. (Decision 021.)
    pool: 'threads',
    // One module graph per worker, not per test file: each file still opens its own database,
    // simulator and server, but discord.js, express, drizzle, Stripe and the product are imported
    // once per worker instead of 72 times (a third of the CPU time; decision 025). Global stubs and
    // fake timers are undone after each file.
    isolate: false,
    unstubGlobals: true,
    unstubEnvs: true,
    // Vitest's default is one worker per core minus one: a single worker on 2 cores. Most test time is
    // waiting (HTTP, the simulated gateway), so 4 workers overlap it: 1m28 instead of 3m48 at load ~1.
    maxWorkers: 4,
    sequence: { sequencer: longFilesFirst(LONG_FILES) },
  },
});

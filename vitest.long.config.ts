import { configDefaults, defineConfig } from 'vitest/config';
import unit, { LONG_RUNS } from './vitest.config.ts';

// `npm test`'s long-runs step (decision 049): whole runs of the product that are not unit tests — the
// population simulation and the fault drill's Redis stop (LONG_RUNS in vitest.config.ts) — beside the
// unit step instead of holding its tail. `npm run test:long` runs them alone.
// Not mergeConfig: it would add these files to the unit step's include list instead of replacing it.
export default defineConfig({
  ...unit,
  test: {
    ...unit.test,
    include: [...LONG_RUNS],
    exclude: [...configDefaults.exclude],
    // One worker per file: each run starts its own product (and the drill its own processes).
    maxWorkers: LONG_RUNS.length,
  },
});

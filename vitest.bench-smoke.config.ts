import { defineConfig } from 'vitest/config';

// `npm test`'s bench step: the quick benchmark end to end (kept out of the unit loop, vitest.config.ts).
export default defineConfig({
  test: {
    include: ['scripts/bench/bench-quick.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

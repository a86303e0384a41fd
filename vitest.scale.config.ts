import { defineConfig } from 'vitest/config';

// `npm test`'s scale step (decision 028 step 5): the scaled-out layout — two ROLE=web processes and one
// ROLE=bot process of the built product on one PostgreSQL and one Redis — under 200 users
// (tests/scale/). It needs the build, PostgreSQL (PG_TEST_URL) and Redis (REDIS_URL); one file, in a
// forked worker of its own, since it starts five processes itself.
export default defineConfig({
  test: {
    include: ['tests/scale/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

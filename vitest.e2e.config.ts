import { defineConfig } from 'vitest/config';

// Browser tests drive Debian's Chromium through playwright-core; one file at a time keeps 2 cores calm.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: { '@shared': fileURLToPath(new URL('./src/shared', import.meta.url)) },
  },
  test: {
    // web/src: pure browser-side logic (API errors, query keys, the claim scheduler); no DOM needed.
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'web/src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

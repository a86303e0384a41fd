import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';

// A process on the embedded SQLite default never loads node-postgres (src/db/pg-lib.ts: ~22 MB of RSS).
// A fresh Node process imports the server's modules (the whole graph main.ts starts) and reports whether
// `pg` is in the CommonJS module cache; then it imports the PostgreSQL store, which must load it, so the
// probe itself is shown to see `pg` when it is there.
const PROBE = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const pgLoaded = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(file));
await import('./src/server.ts');
await import('./src/cli/open-store.ts');
const afterServer = pgLoaded();
await import('./src/db/pg-store.ts');
console.log(JSON.stringify({ afterServer, afterPgStore: pgLoaded() }));
`;

it('loads the server without node-postgres, and the PostgreSQL store with it', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE], {
    cwd: process.cwd(),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  const lastLine = run.stdout.trim().split('\n').at(-1) ?? '';
  expect(JSON.parse(lastLine)).toEqual({ afterServer: false, afterPgStore: true });
});

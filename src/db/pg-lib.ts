import { createRequire } from 'node:module';
import type pg from 'pg';
import { driverErrorCode } from '../shared/errors.ts';

// node-postgres is loaded when the process uses PostgreSQL, not before: with drizzle's driver for it, it
// adds ~22 MB of RSS (4 MB of heap) to a process, and the embedded SQLite default never needs it (the
// soak day's RSS goal is 300 MB). Modules that need its classes at run time ask `pgLib()`; the store on
// PostgreSQL (pg-store.ts, pg-client.ts) is imported by `import()` where the engine is chosen. Types come
// from `import type pg from 'pg'`, which loads nothing. src/db/pg-lazy.test.ts checks that the server's
// modules load without it.

const require = createRequire(import.meta.url);
let loaded: typeof pg | undefined;

/** The `pg` module, loaded on first use. */
export function pgLib(): typeof pg {
  return (loaded ??= require('pg') as typeof pg);
}

/** SQLSTATEs after which the whole transaction may simply be tried again. */
const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

export function isRetryablePgError(err: unknown): boolean {
  const code = driverErrorCode(err);
  return code !== undefined && RETRYABLE.has(code);
}

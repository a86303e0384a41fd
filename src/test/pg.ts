import pg from 'pg';
import { openPgDatabase, type PgDatabase } from '../db/pg-client.ts';
import { errorMessage } from '../ops/error-text.ts';

// PostgreSQL for tests (decision 028): a fresh, migrated database per test file, dropped afterwards.
//
// Policy: with CI=true a test that needs PostgreSQL FAILS when none answers (.ci/run starts one, so an
// absent server is a broken CI, never a silent skip). Locally, without a server, those tests are
// skipped with a note; set PG_TEST_URL to point them at one.

/** The maintenance database the per-file databases are created from (and dropped through). */
export const PG_TEST_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Prefix of every database the tests create; a shared machine may give each user its own. */
const PREFIX = process.env.PG_TEST_DB_PREFIX ?? 'coinsync_test_';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether this file's PostgreSQL tests run: `describe.skipIf(!(await pgTestsEnabled()))`. True when a
 * server answers, and always true on CI, where createPgTestDatabase then fails with the reason.
 */
export async function pgTestsEnabled(): Promise<boolean> {
  if (process.env.CI === 'true' || process.env.CI === '1') return true;
  const ok = await reachable();
  if (!ok)
    console.warn(
      `PostgreSQL tests skipped: nothing answers at ${PG_TEST_URL} (CI=true makes this a failure)`,
    );
  return ok;
}

/** `postgres://…/postgres` with the database name replaced. */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `fn` on a connection of its own to PG_TEST_URL's database (creating, dropping, altering test databases). */
export async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_TEST_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is required for this test and nothing answers at ${PG_TEST_URL} (${errorMessage(err)}). ` +
        'Start one (.ci/run does) or set PG_TEST_URL.',
    );
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface PgTestDatabase extends PgDatabase {
  name: string;
  url: string;
  /** Closes the pool and drops the database (FORCE: also ends connections a child process left). */
  dispose(): Promise<void>;
}

/** A new database with a unique name, migrated with drizzle-pg/. */
export async function createPgTestDatabase(options: { max?: number } = {}): Promise<PgTestDatabase> {
  const name = `${PREFIX}${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe test database name ${name}`);
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = databaseUrl(PG_TEST_URL, name);
  let database: PgDatabase;
  try {
    database = await openPgDatabase(url, { max: options.max ?? 4, applicationName: 'coinsync-test' });
  } catch (err) {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    throw err;
  }
  return {
    ...database,
    name,
    url,
    async dispose() {
      // A test that failed half-way may still hold a pooled client, and pool.end() waits for it: give it
      // a few seconds, then drop anyway (FORCE ends the connection), so no database outlives its test.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        database.close().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, 5000))),
      ]);
      clearTimeout(timer);
      await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

let counter = 0;
/** Factory: a user with a zero balance (credit through the ledger to give coins). */
export async function createPgUser(database: PgDatabase, discordId?: string): Promise<{ id: string }> {
  counter += 1;
  const id = crypto.randomUUID();
  await database.pool.query(
    'INSERT INTO users (id, discord_id, discord_username, created_at) VALUES ($1, $2, $3, $4)',
    [
      id,
      discordId ?? `40000${process.pid}${String(counter).padStart(6, '0')}`,
      `user${counter}`,
      Date.UTC(2026, 0, 1),
    ],
  );
  return { id };
}

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openPgDatabase, type PgDatabase } from '../db/pg-client.ts';
import { errorMessage } from '../ops/error-text.ts';
import { PG_MIGRATIONS_DIR, PROJECT_ROOT } from '../paths.ts';

// PostgreSQL for tests (decision 028): a fresh, migrated database per test file, dropped afterwards. Each
// is a copy of a template database that drizzle-pg/'s migrations were applied to once (decision 060).
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

/** Any key of the lock under which one process builds the template (fits int8): "coinsync template". */
const TEMPLATE_LOCK_KEY = 0x636f696e_7470;

/**
 * The template's name: the prefix and a hash of what the migrator reads (drizzle-pg/'s SQL files and
 * journal) and of the drizzle-orm version that applies them. A change to either names a new template, so a
 * template is never stale; runs of other branches on the same server keep their own.
 */
function templateName(): string {
  const hash = createHash('sha256');
  const drizzle = JSON.parse(
    readFileSync(path.join(PROJECT_ROOT, 'node_modules/drizzle-orm/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(`drizzle-orm ${drizzle.version}\n`);
  const journal = path.join(PG_MIGRATIONS_DIR, 'meta', '_journal.json');
  hash.update(readFileSync(journal));
  for (const file of readdirSync(PG_MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    hash.update(`${file}\n`);
    hash.update(readFileSync(path.join(PG_MIGRATIONS_DIR, file)));
  }
  return `${PREFIX}template_${hash.digest('hex').slice(0, 16)}`;
}

let template: Promise<string> | undefined;

/**
 * The migrated template, built once per server and migration set: the first test process to need it
 * builds it under an advisory lock (the others wait, then find it), in a database of another name that is
 * renamed when complete, so a template that exists is whole. It then refuses connections
 * (ALLOW_CONNECTIONS false: PostgreSQL copies only a database nobody is connected to) and is marked
 * IS_TEMPLATE (so a stray DROP DATABASE refuses it). Migrating took most of a test database's cost
 * (decision 060); a copy is made inside the server, block by block.
 */
function migratedTemplate(): Promise<string> {
  if (template) return template;
  const building = (async () => {
    const name = templateName();
    const exists = (c: pg.Client) =>
      c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]).then((r) => r.rowCount === 1);
    await admin(async (c) => {
      if (await exists(c)) return;
      await c.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
      try {
        if (await exists(c)) return;
        // A build that died half-way (its process killed) left this behind; only the lock holder builds.
        const draft = `${name}_build`;
        await c.query(`DROP DATABASE IF EXISTS "${draft}" WITH (FORCE)`);
        await c.query(`CREATE DATABASE "${draft}"`);
        const database = await openPgDatabase(databaseUrl(PG_TEST_URL, draft), {
          max: 1,
          applicationName: 'coinsync-test-template',
        });
        await database.close();
        await c.query(`ALTER DATABASE "${draft}" RENAME TO "${name}"`);
        await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
      } finally {
        await c.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
      }
    });
    return name;
  })();
  // A failure (no server yet) is not remembered: the next test database tries again.
  building.catch(() => (template = undefined));
  template = building;
  return building;
}

/** A new database with a unique name, migrated with drizzle-pg/ (a copy of the migrated template). */
export async function createPgTestDatabase(options: { max?: number } = {}): Promise<PgTestDatabase> {
  const name = `${PREFIX}${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe test database name ${name}`);
  const source = await migratedTemplate();
  await admin(async (c) => {
    await c.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
    // A commit returns without waiting for its WAL to reach the disk (it is visible, locked and ordered
    // exactly as before; only a server crash could lose the last moments, and no test crashes it). On the
    // shared test machine each commit's flush waited ~20 ms behind other disks' writers (decision 060).
    await c.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
  });
  const url = databaseUrl(PG_TEST_URL, name);
  let database: PgDatabase;
  try {
    // Migrating again finds nothing to do (the template holds drizzle's journal of what it applied): it
    // stays, so a copy that somehow missed a migration is brought up to date rather than tested stale.
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

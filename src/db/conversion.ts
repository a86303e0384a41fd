import { ConfigError, type Config } from '../config.ts';

// Decision 028's conversion, step by step. Until every part below is converted to the async
// repositories of src/db/engine.ts, PostgreSQL (DATABASE_URL) cannot run the product: starting with it
// is refused here, naming what is missing, rather than half-running (converted parts on PostgreSQL, the
// rest on a SQLite file nobody else sees). The web/bot split (ROLE) has its own gate, SPLIT_ROLES_READY
// in src/server.ts, which needs this list empty too.
//
// A stream that converts a part deletes its entry (one per paragraph, so parallel edits merge cleanly).

export const NOT_CONVERTED: readonly string[] = [
  // step 2A: converted (src/users, src/auth, src/account). Sessions: Redis with REDIS_URL, else the
  // database's sessions table (sqlite-session-store.ts, or pg-session-store.ts on PostgreSQL, step 4).

  // step 2B: converted (src/rewards, src/social).

  // step 2C: converted (src/campaigns).

  // step 2D: converted (src/joins): Discover's list follows the store on both engines (SQLite: TEMP
  // triggers and data_version; PostgreSQL: LISTEN/NOTIFY, closeDiscover(store) ends its listening
  // connection); invite stats and address recording and prune go through the store.

  // step 2E: converted (src/payments).

  // step 3: converted (src/bot/bot-repo*.ts; src/background.ts runs the jobs through the PostgreSQL
  // run-once on pg). /farm's list (findDiscoverPage) and the address prune and invite stats jobs are
  // converted with step 2D above; still reached from the bot: the live events' balance and completion
  // reads (src/events/publish.ts, step 4).

  // step 4: converted (readiness, live events, the demo seed, sign out everywhere, backups — SQLite
  // only, pg_dump on PostgreSQL — and src/server.ts opening PostgreSQL with its session store). The
  // first page's data of a signed-in Discover (src/auth/page-data.ts) reads the Discover list, above.
  // Left for the merge: AppContext.db/sqlite (they throw on PostgreSQL) and SPLIT_ROLES_READY.
];

/** Throws a ConfigError when the configuration asks for what the conversion has not reached yet. */
export function assertRunnable(config: Pick<Config, 'database'>, notConverted = NOT_CONVERTED): void {
  if (config.database.kind !== 'pg' || notConverted.length === 0) return;
  throw new ConfigError(
    'DATABASE_URL (PostgreSQL) cannot run yet: these parts still use the synchronous SQLite handle ' +
      `(decision 028's conversion):\n${notConverted.map((p) => `  - ${p}`).join('\n')}\n` +
      'Unset DATABASE_URL to run on SQLite (DATABASE_PATH) in one process.',
  );
}

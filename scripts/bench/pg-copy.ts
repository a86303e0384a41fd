import Database from 'better-sqlite3';
import pg from 'pg';

// The bench's seed on PostgreSQL (`npm run bench -- --pg`): seed.ts writes the SQLite file as always, and
// this copies every table the two schemas share into a PostgreSQL database already migrated by the
// product's own migrations (drizzle-pg/), in multi-row INSERTs. Both schemas have the same tables and
// columns (src/db/schema-drift.test.ts); SQLite's 0/1 flags become booleans where PostgreSQL says so.
// Foreign keys and triggers (the Discover notification) are off for the load
// (session_replication_role = replica, the bench's superuser on loopback), as in a restore.

/** PostgreSQL's bind-parameter limit is 65,535 per statement. */
const MAX_PARAMS = 60_000;

export interface CopyResult {
  tables: Record<string, number>;
  ms: number;
}

export async function copySqliteToPg(sqlitePath: string, pgUrl: string): Promise<CopyResult> {
  const started = Date.now();
  const sqlite = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  const tables: Record<string, number> = {};
  try {
    const pgColumns = await client.query<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const byTable = new Map<string, Map<string, string>>();
    for (const row of pgColumns.rows) {
      const columns = byTable.get(row.table_name) ?? new Map<string, string>();
      columns.set(row.column_name, row.data_type);
      byTable.set(row.table_name, columns);
    }
    const sqliteTables = sqlite
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'`,
      )
      .all()
      .map((t) => t.name)
      .filter((name) => byTable.has(name));
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of sqliteTables) {
      const pgTypes = byTable.get(table)!;
      const columns = sqlite
        .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
        .all()
        .map((c) => c.name)
        .filter((c) => pgTypes.has(c));
      const booleans = columns.map((c) => pgTypes.get(c) === 'boolean');
      const perBatch = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
      const list = columns.map((c) => `"${c}"`).join(', ');
      let batch: unknown[][] = [];
      let count = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const values: unknown[] = [];
        const rows = batch.map((row) => {
          const slots = row.map((value, i) => {
            values.push(booleans[i] && value !== null ? value === 1 || value === true : value);
            return `$${values.length}`;
          });
          return `(${slots.join(', ')})`;
        });
        await client.query(`INSERT INTO "${table}" (${list}) VALUES ${rows.join(', ')}`, values);
        count += batch.length;
        batch = [];
      };
      const select = sqlite.prepare(`SELECT ${list} FROM "${table}"`).raw();
      for (const row of select.iterate() as IterableIterator<unknown[]>) {
        batch.push(row);
        if (batch.length >= perBatch) await flush();
      }
      await flush();
      tables[table] = count;
    }
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
    sqlite.close();
  }
  return { tables, ms: Date.now() - started };
}

/** PostgreSQL backends serving `database` (the product's pools and listeners), by pid. */
export async function backendPids(adminUrl: string, database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const rows = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return rows.rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableConfig as sqliteTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { getTableConfig as pgTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import * as sqliteSchema from './schema.ts';
import * as pgSchema from './schema.pg.ts';
import { createPgTestDatabase, createPgUser, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { driverErrorCode } from '../shared/errors.ts';

// src/db/schema.ts (SQLite, the default) and src/db/schema.pg.ts (PostgreSQL, decision 028) describe one
// database. This file fails when they drift: a table, column, default, key, index, foreign key or check
// added to one and not the other. With PostgreSQL it also checks that drizzle-pg/ migrations produce
// exactly schema.pg.ts (someone changed it but forgot `npm run db:generate:pg`).

/** Tables only PostgreSQL has (several processes need them; one SQLite process does not). */
const PG_ONLY_TABLES = ['job_runs'];
/** PostgreSQL checks that stand for something SQLite says another way. */
const PG_ONLY_CHECKS = ['servers_kind_consistent']; // SQLite: the two triggers of migration 0005
/**
 * Columns PostgreSQL stores as int4. Every other integer is bigint there: money in hundredths reaches
 * 9999999999 and epoch milliseconds 1.8e12, both past int4. A new small counter goes on this list.
 */
const PG_INT4_COLUMNS = [
  'servers.members_remaining',
  'servers.initial_member_slots',
  'servers.featured_remaining',
  'servers.completion_dm_attempts',
  'servers.min_account_age_days',
  'payments.adjustments',
  'ops_heartbeat.id',
  'member_guilds.premium_type',
  'reminder_settings.quiet_start',
  'reminder_settings.quiet_end',
  'reminders_due.attempts',
  'reconcile_holds.holds',
  'retention_checks.milestone_days',
  'notification_outbox.attempts',
  'notification_attempts.attempt',
  'notification_attempts.status_code',
  'notification_attempts.latency_ms',
];

type Kind = 'text' | 'integer' | 'boolean';
const SQLITE_KIND: Record<string, Kind> = {
  SQLiteText: 'text',
  SQLiteInteger: 'integer',
  SQLiteBoolean: 'boolean',
};
const PG_KIND: Record<string, Kind> = {
  PgText: 'text',
  PgInteger: 'integer',
  PgBigInt53: 'integer',
  PgBoolean: 'boolean',
};

interface ColumnShape {
  /** A Kind, or `unmapped <columnType>` for a type this test does not know yet. */
  kind: string;
  notNull: boolean;
  primary: boolean;
  unique: boolean;
  default: unknown;
  generatedId: boolean;
  enumValues: string[] | undefined;
}

interface TableShape {
  columns: Record<string, ColumnShape>;
  indexes: string[];
  foreignKeys: string[];
  primaryKeys: string[];
  uniqueConstraints: string[];
  checks: string[];
}

interface AnyColumn {
  name: string;
  columnType: string;
  notNull: boolean;
  primary: boolean;
  isUnique: boolean;
  default: unknown;
  defaultFn?: unknown;
  enumValues?: string[];
}

function columnShape(c: AnyColumn, kinds: Record<string, Kind>): ColumnShape {
  return {
    kind: kinds[c.columnType] ?? `unmapped ${c.columnType}`,
    notNull: c.notNull,
    primary: c.primary,
    unique: c.isUnique,
    default: c.default,
    generatedId: typeof c.defaultFn === 'function',
    enumValues: c.enumValues?.length ? [...c.enumValues] : undefined,
  };
}

const names = (cols: { name: string }[]) => cols.map((c) => c.name).join(',');

function sqliteShapes(): Record<string, TableShape> {
  const out: Record<string, TableShape> = {};
  for (const value of Object.values(sqliteSchema)) {
    if (!is(value, SQLiteTable)) continue;
    const t = sqliteTableConfig(value);
    out[t.name] = {
      columns: Object.fromEntries(t.columns.map((c) => [c.name, columnShape(c, SQLITE_KIND)])),
      indexes: t.indexes
        .map((i) => {
          const cols = i.config.columns.map((c) => ('name' in c ? c.name : '<expression>')).join(',');
          return `${i.config.name}(${cols})${i.config.unique ? ' unique' : ''}${i.config.where ? ' partial' : ''}`;
        })
        .sort(),
      foreignKeys: t.foreignKeys
        .map((f) => {
          const r = f.reference();
          const target = sqliteTableConfig(r.foreignTable).name;
          return `${names(r.columns)} -> ${target}(${names(r.foreignColumns)}) on delete ${f.onDelete ?? 'no action'}`;
        })
        .sort(),
      primaryKeys: t.primaryKeys.map((p) => names(p.columns)).sort(),
      uniqueConstraints: t.uniqueConstraints.map((u) => names(u.columns)).sort(),
      checks: t.checks.map((c) => c.name).sort(),
    };
  }
  return out;
}

function pgShapes(): Record<string, TableShape> {
  const out: Record<string, TableShape> = {};
  for (const value of Object.values(pgSchema)) {
    if (!is(value, PgTable)) continue;
    const t = pgTableConfig(value);
    out[t.name] = {
      columns: Object.fromEntries(t.columns.map((c) => [c.name, columnShape(c, PG_KIND)])),
      indexes: t.indexes
        .map((i) => {
          const cols = i.config.columns
            .map((c) => ('name' in c && typeof c.name === 'string' ? c.name : '<expression>'))
            .join(',');
          return `${i.config.name}(${cols})${i.config.unique ? ' unique' : ''}${i.config.where ? ' partial' : ''}`;
        })
        .sort(),
      foreignKeys: t.foreignKeys
        .map((f) => {
          const r = f.reference();
          const target = pgTableConfig(r.foreignTable).name;
          return `${names(r.columns)} -> ${target}(${names(r.foreignColumns)}) on delete ${f.onDelete ?? 'no action'}`;
        })
        .sort(),
      primaryKeys: t.primaryKeys.map((p) => names(p.columns)).sort(),
      uniqueConstraints: t.uniqueConstraints.map((u) => names(u.columns)).sort(),
      checks: t.checks.map((c) => c.name).sort(),
    };
  }
  return out;
}

describe('schema.ts and schema.pg.ts', () => {
  const sqlite = sqliteShapes();
  const pg = pgShapes();

  it('have the same tables (PostgreSQL adds only its listed own)', () => {
    expect(
      Object.keys(pg)
        .filter((t) => !PG_ONLY_TABLES.includes(t))
        .sort(),
    ).toEqual(Object.keys(sqlite).sort());
    // The same export names too, so code written against one schema module reads the other.
    const exported = (mod: object, isTable: (v: unknown) => boolean) =>
      Object.entries(mod)
        .filter(([, v]) => isTable(v))
        .map(([k]) => k);
    expect(
      exported(pgSchema, (v) => is(v, PgTable) && !PG_ONLY_TABLES.includes(pgTableConfig(v).name)).sort(),
    ).toEqual(exported(sqliteSchema, (v) => is(v, SQLiteTable)).sort());
  });

  for (const table of Object.keys(sqlite)) {
    it(`agree on ${table}: columns, types, nullability, defaults, keys, indexes, foreign keys, checks`, () => {
      const a = sqlite[table]!;
      const b = pg[table];
      expect(b, `${table} is missing from schema.pg.ts`).toBeDefined();
      expect(b!.columns).toEqual(a.columns);
      expect(b!.indexes).toEqual(a.indexes);
      expect(b!.foreignKeys).toEqual(a.foreignKeys);
      expect(b!.primaryKeys).toEqual(a.primaryKeys);
      expect(b!.uniqueConstraints).toEqual(a.uniqueConstraints);
      expect(b!.checks.filter((c) => !PG_ONLY_CHECKS.includes(c))).toEqual(a.checks);
    });
  }

  it('store every integer that is not a listed small counter as bigint on PostgreSQL', () => {
    const int4: string[] = [];
    for (const value of Object.values(pgSchema)) {
      if (!is(value, PgTable)) continue;
      const t = pgTableConfig(value);
      for (const c of t.columns) if (c.columnType === 'PgInteger') int4.push(`${t.name}.${c.name}`);
    }
    expect(int4.sort()).toEqual([...PG_INT4_COLUMNS].sort());
  });
});

const PG_TYPE: Record<string, string> = {
  PgText: 'text',
  PgInteger: 'integer',
  PgBigInt53: 'bigint',
  PgBoolean: 'boolean',
};

describe.skipIf(!(await pgTestsEnabled()))('drizzle-pg/ migrations on PostgreSQL', () => {
  let database: PgTestDatabase;
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('create exactly the tables, columns, indexes and checks of schema.pg.ts (migrations are current)', async () => {
    const expectedColumns: string[] = [];
    const expectedIndexes: string[] = [];
    const expectedChecks: string[] = [];
    for (const value of Object.values(pgSchema)) {
      if (!is(value, PgTable)) continue;
      const t = pgTableConfig(value);
      for (const c of t.columns)
        expectedColumns.push(
          `${t.name}.${c.name} ${PG_TYPE[c.columnType] ?? c.columnType} ${c.notNull ? 'not null' : 'null'}`,
        );
      for (const i of t.indexes) expectedIndexes.push(`${t.name}.${i.config.name}`);
      for (const c of t.checks) expectedChecks.push(`${t.name}.${c.name}`);
    }
    const columns = await database.pool.query<{ c: string }>(
      `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' ||
              CASE is_nullable WHEN 'YES' THEN 'null' ELSE 'not null' END AS c
       FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    expect(columns.rows.map((r) => r.c).sort()).toEqual(expectedColumns.sort());
    // Indexes drizzle names (primary keys and UNIQUE constraints have their own implicit ones).
    const indexes = await database.pool.query<{ i: string }>(
      `SELECT tablename || '.' || indexname AS i FROM pg_indexes WHERE schemaname = 'public'
       AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_pk' AND indexname NOT LIKE '%\\_unique'`,
    );
    expect(indexes.rows.map((r) => r.i).sort()).toEqual(expectedIndexes.sort());
    const checks = await database.pool.query<{ c: string }>(
      `SELECT rel.relname || '.' || con.conname AS c FROM pg_constraint con
       JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace n ON n.oid = rel.relnamespace
       WHERE n.nspname = 'public' AND con.contype = 'c'`,
    );
    expect(checks.rows.map((r) => r.c).sort()).toEqual(expectedChecks.sort());
  });

  it("refuse a campaign whose kind disagrees with is_featured or server_id, like SQLite's 0005 triggers", async () => {
    const owner = await createPgUser(database);
    const insert = (kind: string, serverId: string | null, featured: boolean) =>
      database.pool.query(
        `INSERT INTO servers (id, owner_id, name, invite_link, kind, server_id, is_featured, created_at)
         VALUES ($1, $2, 'S', 'https://discord.gg/x', $3, $4, $5, 0)`,
        [crypto.randomUUID(), owner.id, kind, serverId, featured],
      );
    const code = async (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (err: unknown) => driverErrorCode(err),
      );
    expect(await code(insert('regular', 'g1', false))).toBe('ok');
    expect(await code(insert('featured', 'g1', true))).toBe('ok');
    expect(await code(insert('nobot', null, false))).toBe('ok');
    expect(await code(insert('nobot', 'g1', false))).toBe('23514');
    expect(await code(insert('regular', null, false))).toBe('23514');
    expect(await code(insert('featured', 'g1', false))).toBe('23514');
    expect(await code(insert('regular', 'g1', true))).toBe('23514');
    expect(await code(insert('boosted', 'g1', false))).toBe('23514');
    const updated = database.pool.query("UPDATE servers SET is_featured = true WHERE kind = 'regular'");
    expect(await code(updated)).toBe('23514');
  });
});

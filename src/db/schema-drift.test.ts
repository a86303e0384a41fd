import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  blob,
  check,
  getTableConfig as sqliteTableConfig,
  index,
  integer,
  primaryKey,
  real,
  SQLiteTable,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { check as pgCheck, getTableConfig as pgTableConfig, PgDialect, PgTable } from 'drizzle-orm/pg-core';
import { is } from 'drizzle-orm';
import { generateDrizzleJson, generateSQLiteDrizzleJson } from 'drizzle-kit/api';
import * as sqliteSchema from './schema.ts';
import * as pgSchema from './schema.pg.ts';
import { pgSchemaFrom } from './schema-to-pg.ts';
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from '../paths.ts';
import { createPgTestDatabase, createPgUser, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { driverErrorCode } from '../shared/errors.ts';

// src/db/schema.ts is the one declaration of the database; src/db/schema.pg.ts derives the PostgreSQL
// tables from it (src/db/schema-to-pg.ts, decision 058). This file fails when:
// - the derived schema loses something of schema.ts: a table, column, type, nullability, default, key,
//   index, foreign key or check (the converter's rules are checked on a table of every kind below);
// - a migration tree is not current: drizzle/ and drizzle-pg/'s latest snapshots must be exactly what
//   drizzle-kit makes of schema.ts and schema.pg.ts (someone changed schema.ts and forgot
//   `npm run db:generate` or `npm run db:generate:pg`), without a database;
// - with PostgreSQL, the drizzle-pg/ migrations do not build exactly schema.pg.ts.

/** Tables only PostgreSQL has (several processes need them; one SQLite process does not). */
const PG_ONLY_TABLES = ['job_runs'];
/** PostgreSQL checks that stand for something SQLite says another way. */
const PG_ONLY_CHECKS = ['servers_kind_consistent']; // SQLite: the two triggers of migration 0005

type Kind = 'text' | 'integer' | 'boolean' | 'real';
const SQLITE_KIND: Record<string, Kind> = {
  SQLiteText: 'text',
  SQLiteInteger: 'integer',
  SQLiteBoolean: 'boolean',
  SQLiteReal: 'real',
};
const PG_KIND: Record<string, Kind> = {
  PgText: 'text',
  PgInteger: 'integer',
  PgBigInt53: 'integer',
  PgBoolean: 'boolean',
  PgDoublePrecision: 'real',
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
const pgDialect = new PgDialect();

function sqliteShapes(mod: object): Record<string, TableShape> {
  const out: Record<string, TableShape> = {};
  for (const value of Object.values(mod)) {
    if (!is(value, SQLiteTable)) continue;
    const t = sqliteTableConfig(value);
    out[t.name] = {
      columns: Object.fromEntries(t.columns.map((c) => [c.name, columnShape(c, SQLITE_KIND)])),
      indexes: t.indexes
        .map((i) => {
          const cols = i.config.columns.map((c) => ('name' in c ? c.name : '<expression>')).join(',');
          // The predicate as PostgreSQL would say it: the same columns, the same text.
          const where = i.config.where ? ` where ${pgDialect.sqlToQuery(i.config.where).sql}` : '';
          return `${i.config.name}(${cols})${i.config.unique ? ' unique' : ''}${where}`;
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
      checks: t.checks.map((c) => `${c.name}: ${pgDialect.sqlToQuery(c.value).sql}`).sort(),
    };
  }
  return out;
}

function pgShapes(mod: object): Record<string, TableShape> {
  const out: Record<string, TableShape> = {};
  for (const value of Object.values(mod)) {
    if (!is(value, PgTable)) continue;
    const t = pgTableConfig(value);
    out[t.name] = {
      columns: Object.fromEntries(t.columns.map((c) => [c.name, columnShape(c, PG_KIND)])),
      indexes: t.indexes
        .map((i) => {
          const cols = i.config.columns
            .map((c) => ('name' in c && typeof c.name === 'string' ? c.name : '<expression>'))
            .join(',');
          const where = i.config.where ? ` where ${pgDialect.sqlToQuery(i.config.where).sql}` : '';
          return `${i.config.name}(${cols})${i.config.unique ? ' unique' : ''}${where}`;
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
      checks: t.checks.map((c) => `${c.name}: ${pgDialect.sqlToQuery(c.value).sql}`).sort(),
    };
  }
  return out;
}

/** PostgreSQL's column types of a derived module, as `table.column type`. */
function pgTypes(mod: object): string[] {
  const out: string[] = [];
  for (const value of Object.values(mod)) {
    if (!is(value, PgTable)) continue;
    const t = pgTableConfig(value);
    for (const c of t.columns) out.push(`${t.name}.${c.name} ${c.getSQLType()}`);
  }
  return out.sort();
}

describe('schema.pg.ts, derived from schema.ts', () => {
  const sqlite = sqliteShapes(sqliteSchema);
  const pg = pgShapes(pgSchema);

  it('has the same tables under the same export names (PostgreSQL adds only its listed own)', () => {
    expect(
      Object.keys(pg)
        .filter((t) => !PG_ONLY_TABLES.includes(t))
        .sort(),
    ).toEqual(Object.keys(sqlite).sort());
    // The same export names too, so code written against one schema module reads the other (and a
    // table missing from schema.pg.ts's export list is not silently left out of drizzle-pg/).
    const exported = (mod: object, isTable: (v: unknown) => boolean) =>
      Object.entries(mod)
        .filter(([, v]) => isTable(v))
        .map(([k]) => k);
    expect(
      exported(pgSchema, (v) => is(v, PgTable) && !PG_ONLY_TABLES.includes(pgTableConfig(v).name)).sort(),
    ).toEqual(exported(sqliteSchema, (v) => is(v, SQLiteTable)).sort());
  });

  it('types its tables as schema.ts does: the same rows to read and to insert (checked by tsc)', () => {
    expectTypeOf<(typeof pgSchema.users)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.users)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.users)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.users)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.campaigns)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.campaigns)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.campaigns)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.campaigns)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.campaignJoins)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.campaignJoins)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.campaignJoins)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.campaignJoins)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.payments)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.payments)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.payments)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.payments)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.reconcileHolds)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.reconcileHolds)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.reconcileHolds)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.reconcileHolds)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.reminderSettings)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.reminderSettings)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.reminderSettings)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.reminderSettings)['$inferInsert']
    >();
    expectTypeOf<(typeof pgSchema.notificationOutbox)['$inferSelect']>().toEqualTypeOf<
      (typeof sqliteSchema.notificationOutbox)['$inferSelect']
    >();
    expectTypeOf<(typeof pgSchema.notificationOutbox)['$inferInsert']>().toEqualTypeOf<
      (typeof sqliteSchema.notificationOutbox)['$inferInsert']
    >();
    expect(pgSchema.campaigns.guildId.name).toBe('server_id');
  });

  for (const table of Object.keys(sqlite)) {
    it(`agrees on ${table}: columns, types, nullability, defaults, keys, indexes, foreign keys, checks`, () => {
      const a = sqlite[table]!;
      const b = pg[table];
      expect(b, `${table} is missing from schema.pg.ts`).toBeDefined();
      expect(b!.columns).toEqual(a.columns);
      expect(b!.indexes).toEqual(a.indexes);
      expect(b!.foreignKeys).toEqual(a.foreignKeys);
      expect(b!.primaryKeys).toEqual(a.primaryKeys);
      expect(b!.uniqueConstraints).toEqual(a.uniqueConstraints);
      expect(b!.checks.filter((c) => !PG_ONLY_CHECKS.some((name) => c.startsWith(`${name}:`)))).toEqual(
        a.checks,
      );
    });
  }
});

describe('schema-to-pg rules', () => {
  const owners = sqliteTable('owners', {
    id: text('id')
      .primaryKey()
      .$defaultFn(() => 'generated'),
    handle: text('handle').notNull().unique(),
  });
  const things = sqliteTable(
    'things',
    {
      id: text('id').primaryKey(),
      ownerId: text('owner_id')
        .notNull()
        .references(() => owners.id, { onDelete: 'cascade' }),
      color: text('color', { enum: ['red', 'blue'] })
        .notNull()
        .default('red'),
      cents: integer('cents').notNull().default(0),
      at: integer('at'),
      tries: integer('tries').notNull().default(0),
      on: integer('on', { mode: 'boolean' }).notNull().default(true),
      ratio: real('ratio'),
    },
    (t) => [
      index('things_owner_idx').on(t.ownerId, t.at),
      uniqueIndex('things_color_uq')
        .on(t.color)
        .where(sql`${t.at} IS NULL`),
      check('things_cents_range', sql`${t.cents} >= 0`),
    ],
  );
  const pairs = sqliteTable('pairs', { a: text('a').notNull(), b: text('b').notNull() }, (t) => [
    primaryKey({ columns: [t.a, t.b] }),
  ]);
  const mod = { owners, things, pairs, notATable: 42 };

  it('keeps every part of every table and maps the types: integers bigint unless listed, flags boolean, real double', () => {
    const derived = pgSchemaFrom(mod, { int4: { things: ['tries'] } });
    expect(Object.keys(derived).sort()).toEqual(['owners', 'pairs', 'things']);
    expect(pgShapes(derived)).toEqual(sqliteShapes(mod));
    expect(pgTypes(derived)).toEqual(
      [
        'owners.id text',
        'owners.handle text',
        'things.id text',
        'things.owner_id text',
        'things.color text',
        'things.cents bigint',
        'things.at bigint',
        'things.tries integer',
        'things.on boolean',
        'things.ratio double precision',
        'pairs.a text',
        'pairs.b text',
      ].sort(),
    );
    // The derived tables' keys and runtime defaults are the SQLite ones.
    expect(derived.things.ownerId.name).toBe('owner_id');
    expect(derived.owners.id.defaultFn?.()).toBe('generated');
    // Foreign keys point at the derived table, not at the SQLite one.
    const [fk] = pgTableConfig(derived.things).foreignKeys;
    expect(fk!.reference().foreignTable).toBe(derived.owners);
  });

  it('adds the PostgreSQL-only constraints it is given', () => {
    const derived = pgSchemaFrom(mod, {
      int4: {},
      extra: { pairs: (t) => [pgCheck('pairs_differ', sql`${t.a} <> ${t.b}`)] },
    });
    expect(pgTableConfig(derived.pairs).checks.map((c) => pgDialect.sqlToQuery(c.value).sql)).toEqual([
      '"pairs"."a" <> "pairs"."b"',
    ]);
  });

  it('refuses what it has no rule for, and an int4 entry that is not an integer column', () => {
    const blobs = sqliteTable('blobs', { data: blob('data') });
    expect(() => pgSchemaFrom({ blobs }, { int4: {} })).toThrow(/blobs\.data: no PostgreSQL rule/);
    const counters = sqliteTable('counters', { id: integer('id').primaryKey({ autoIncrement: true }) });
    expect(() => pgSchemaFrom({ counters }, { int4: {} })).toThrow(/counters\.id: autoincrement/);
    expect(() => pgSchemaFrom(mod, { int4: { owners: ['handle'] } })).toThrow(/owners\.handle/);
  });
});

/** The latest snapshot of a drizzle-kit migration folder (what the next `generate` diffs against). */
function latestSnapshot(folder: string): Record<string, unknown> {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number }[];
  };
  const last = journal.entries.at(-1)!.idx;
  const file = path.join(folder, 'meta', `${String(last).padStart(4, '0')}_snapshot.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** A snapshot without its identity (id, prevId, rename notes): what the schema says. */
function content(snapshot: Record<string, unknown>) {
  const { id: _id, prevId: _prevId, _meta, ...rest } = snapshot;
  return rest;
}

describe('migration trees are current (what `npm run db:generate` / `db:generate:pg` would compare)', () => {
  it('drizzle/ ends with exactly schema.ts', async () => {
    const current = await generateSQLiteDrizzleJson(sqliteSchema);
    expect(content(current as unknown as Record<string, unknown>)).toEqual(
      content(latestSnapshot(MIGRATIONS_DIR)),
    );
  });

  it('drizzle-pg/ ends with exactly schema.pg.ts', () => {
    const current = generateDrizzleJson(pgSchema);
    expect(content(current as unknown as Record<string, unknown>)).toEqual(
      content(latestSnapshot(PG_MIGRATIONS_DIR)),
    );
  });
});

const PG_TYPE: Record<string, string> = {
  PgText: 'text',
  PgInteger: 'integer',
  PgBigInt53: 'bigint',
  PgBoolean: 'boolean',
  PgDoublePrecision: 'double precision',
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
    const insert = (kind: string, guildId: string | null, featured: boolean) =>
      database.pool.query(
        `INSERT INTO servers (id, owner_id, name, invite_link, kind, server_id, is_featured, created_at)
         VALUES ($1, $2, 'S', 'https://discord.gg/x', $3, $4, $5, 0)`,
        [crypto.randomUUID(), owner.id, kind, guildId, featured],
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

import { Column, getTableColumns, is, SQL, type MakeColumnConfig } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
  type ExtraConfigColumn,
  type PgColumn,
  type PgColumnBuilderBase,
  type PgTableExtraConfigValue,
  type PgTableWithColumns,
  type UpdateDeleteAction,
} from 'drizzle-orm/pg-core';
import { getTableConfig, SQLiteTable, type SQLiteColumn } from 'drizzle-orm/sqlite-core';

// The PostgreSQL schema is derived from src/db/schema.ts, the one declaration of the database (decision
// 058). Each SQLite table becomes a pgTable with the same export name, SQL name, columns (same TS keys,
// SQL names, nullability, defaults, runtime defaults, uniqueness, primary keys), indexes (partial ones
// too), foreign keys and checks. What is not 1:1 is said here once, as explicit rules:
//
// - text → text (an `enum` stays a TS-only enum, as on SQLite);
// - integer → bigint read as a JS number (money in hundredths reaches ±9999999999 and epoch milliseconds
//   1.8e12, both past int4), except the small counters listed in `int4` → integer;
// - integer `{ mode: 'boolean' }` (SQLite's 0/1 flags) → boolean;
// - real → double precision (SQLite's REAL is an 8-byte float).
//
// Anything else (blob, numeric, timestamp modes, autoincrement, generated columns, multi-column foreign
// keys, expression indexes) throws at load time, so a new kind of column gets a rule here before it can
// reach a migration. PostgreSQL-only tables and constraints stay written in schema.pg.ts.

type SqliteColumnTypeToPg = {
  SQLiteText: { columnType: 'PgText'; driverParam: string };
  SQLiteInteger: { columnType: 'PgBigInt53' | 'PgInteger'; driverParam: number | string };
  SQLiteBoolean: { columnType: 'PgBoolean'; driverParam: boolean };
  SQLiteReal: { columnType: 'PgDoublePrecision'; driverParam: string | number };
};

type PgTypeOf<C extends SQLiteColumn> = C['_']['columnType'] extends keyof SqliteColumnTypeToPg
  ? SqliteColumnTypeToPg[C['_']['columnType']]
  : { columnType: never; driverParam: never };

/** The PostgreSQL column type of a SQLite column: the same data, nullability, defaults and key flags. */
export type PgColumnOf<C extends SQLiteColumn, TTableName extends string> = PgColumn<
  MakeColumnConfig<
    {
      name: C['_']['name'];
      dataType: C['_']['dataType'];
      columnType: PgTypeOf<C>['columnType'];
      data: C['_']['data'];
      driverParam: PgTypeOf<C>['driverParam'];
      enumValues: C['_']['enumValues'];
      notNull: C['_']['notNull'];
      hasDefault: C['_']['hasDefault'];
      isPrimaryKey: C['_']['isPrimaryKey'];
      isAutoincrement: C['_']['isAutoincrement'];
      hasRuntimeDefault: C['_']['hasRuntimeDefault'];
      identity: C['_']['identity'];
      generated: C['_']['generated'];
    },
    TTableName
  >
>;

type ColumnsOf<T extends SQLiteTable> = T['_']['columns'];

/** The PostgreSQL table type of a SQLite table (what `pgTable` would have typed by hand). */
export type PgTableOf<T extends SQLiteTable> = PgTableWithColumns<{
  name: T['_']['name'];
  schema: undefined;
  columns: {
    [K in keyof ColumnsOf<T>]: ColumnsOf<T>[K] extends SQLiteColumn
      ? PgColumnOf<ColumnsOf<T>[K], T['_']['name']>
      : never;
  };
  dialect: 'pg';
}>;

type TableKeys<M> = { [K in keyof M]: M[K] extends SQLiteTable ? K : never }[keyof M];

export type PgSchemaOf<M> = { [K in TableKeys<M>]: M[K] extends SQLiteTable ? PgTableOf<M[K]> : never };

export interface PgRules<M> {
  /**
   * Integer columns stored as int4 (small counters), by table export name and column key. Every other
   * integer is bigint: a new column is wide enough by default.
   */
  int4: {
    [K in TableKeys<M>]?: readonly (M[K] extends SQLiteTable ? keyof ColumnsOf<M[K]> & string : never)[];
  };
  /** PostgreSQL-only constraints of a table (e.g. a CHECK that SQLite says with triggers). */
  extra?: {
    [K in TableKeys<M>]?: (
      t: M[K] extends SQLiteTable ? Record<keyof ColumnsOf<M[K]>, ExtraConfigColumn> : never,
    ) => PgTableExtraConfigValue[];
  };
}

/** The column builder methods used here, common to every PostgreSQL column builder. */
interface Chain extends PgColumnBuilderBase {
  primaryKey(): Chain;
  notNull(): Chain;
  default(value: unknown): Chain;
  $defaultFn(fn: () => unknown): Chain;
  $onUpdateFn(fn: () => unknown): Chain;
  unique(name?: string): Chain;
  references(
    ref: () => PgColumn,
    actions: { onDelete?: UpdateDeleteAction; onUpdate?: UpdateDeleteAction },
  ): Chain;
}

interface Converted {
  table: PgTableWithColumns<never>;
  /** SQLite column → the TS key it has in both tables. */
  keys: Map<Column, string>;
}

/** The PostgreSQL column of one SQLite column, by the type rules above (`at` names it in errors). */
function pgBaseColumn(c: SQLiteColumn, small: boolean, at: string): PgColumnBuilderBase {
  if (c.generated || c.generatedIdentity)
    throw new Error(`schema-to-pg: ${at}: generated columns have no rule`);
  let built: PgColumnBuilderBase;
  switch (c.columnType) {
    case 'SQLiteText': {
      const values = c.enumValues;
      built = values?.length ? text(c.name, { enum: values as [string, ...string[]] }) : text(c.name);
      break;
    }
    case 'SQLiteInteger':
      if ((c as unknown as { autoIncrement?: boolean }).autoIncrement)
        throw new Error(`schema-to-pg: ${at}: autoincrement has no rule`);
      built = small ? integer(c.name) : bigint(c.name, { mode: 'number' });
      break;
    case 'SQLiteBoolean':
      built = boolean(c.name);
      break;
    case 'SQLiteReal':
      built = doublePrecision(c.name);
      break;
    default:
      throw new Error(`schema-to-pg: ${at}: no PostgreSQL rule for ${c.columnType} (src/db/schema-to-pg.ts)`);
  }
  return built;
}

/** A column's constraints and defaults, carried over (one chain for the four builder types). */
function withColumnConstraints(b: Chain, c: SQLiteColumn, remap: (s: SQL) => SQL): Chain {
  let out = b;
  if (c.primary) out = out.primaryKey();
  if (c.notNull) out = out.notNull();
  if (c.default !== undefined) out = out.default(is(c.default, SQL) ? remap(c.default) : c.default);
  if (c.defaultFn) out = out.$defaultFn(c.defaultFn);
  if (c.onUpdateFn) out = out.$onUpdateFn(c.onUpdateFn);
  if (c.isUnique) out = out.unique(c.uniqueName);
  return out;
}

/** The table's foreign keys by the key of their one column (only unnamed one-column keys have a rule). */
function singleForeignKeysOf(
  config: ReturnType<typeof getTableConfig>,
  keys: Map<Column, string>,
): Map<string, ReturnType<typeof getTableConfig>['foreignKeys'][number]> {
  const byKey = new Map<string, ReturnType<typeof getTableConfig>['foreignKeys'][number]>();
  for (const fk of config.foreignKeys) {
    const ref = fk.reference();
    if (ref.columns.length !== 1 || ref.name !== undefined)
      throw new Error(`schema-to-pg: ${config.name}: only unnamed one-column foreign keys have a rule`);
    byKey.set(keys.get(ref.columns[0]!)!, fk);
  }
  return byKey;
}

/**
 * Derives the PostgreSQL tables from a module of SQLite tables (`import * as schema from './schema.ts'`):
 * one pgTable per exported sqliteTable, under the same export name.
 */
export function pgSchemaFrom<M extends Record<string, unknown>>(
  sqliteModule: M,
  rules: PgRules<M>,
): PgSchemaOf<M> {
  const bySqlite = new Map<SQLiteTable, Converted>();
  const out: Record<string, unknown> = {};
  const int4 = rules.int4 as Record<string, readonly string[] | undefined>;
  const extra = (rules.extra ?? {}) as Record<
    string,
    ((t: Record<string, ExtraConfigColumn>) => PgTableExtraConfigValue[]) | undefined
  >;

  /** The PostgreSQL column standing for a SQLite column (tables are looked up lazily: references go forward). */
  const pgColumn = (c: Column): PgColumn => {
    const converted = is(c.table, SQLiteTable) ? bySqlite.get(c.table) : undefined;
    const key = converted?.keys.get(c);
    if (!converted || key === undefined)
      throw new Error(`schema-to-pg: column ${c.name} is not of a converted table`);
    return (converted.table as unknown as Record<string, PgColumn>)[key]!;
  };

  /** The same SQL, with SQLite columns replaced by their PostgreSQL ones (checks, partial indexes, defaults). */
  const remap = (s: SQL): SQL => new SQL(s.queryChunks.map(remapChunk));
  const remapChunk = (chunk: unknown): never =>
    (is(chunk, SQL)
      ? remap(chunk)
      : is(chunk, Column)
        ? pgColumn(chunk)
        : Array.isArray(chunk)
          ? chunk.map(remapChunk)
          : chunk) as never;

  for (const [exportName, value] of Object.entries(sqliteModule)) {
    if (!is(value, SQLiteTable)) continue;
    const config = getTableConfig(value);
    const tableName = config.name;
    const columns = getTableColumns(value) as Record<string, SQLiteColumn>;
    const keys = new Map<Column, string>(Object.entries(columns).map(([k, c]) => [c, k]));
    const small = new Set(int4[exportName] ?? []);
    for (const k of small)
      if (columns[k]?.columnType !== 'SQLiteInteger')
        throw new Error(`schema-to-pg: int4 names ${tableName}.${k}, which is not an integer column`);

    const singleForeignKeys = singleForeignKeysOf(config, keys);

    const builders: Record<string, PgColumnBuilderBase> = {};
    for (const [key, c] of Object.entries(columns)) {
      let b = pgBaseColumn(c, small.has(key), `${tableName}.${c.name}`) as unknown as Chain;
      b = withColumnConstraints(b, c, remap);
      const fk = singleForeignKeys.get(key);
      if (fk) {
        const target = fk.reference().foreignColumns[0]!;
        b = b.references(() => pgColumn(target), {
          ...(fk.onDelete ? { onDelete: fk.onDelete } : {}),
          ...(fk.onUpdate ? { onUpdate: fk.onUpdate } : {}),
        });
      }
      builders[key] = b;
    }

    const keyOf = (c: unknown): string => {
      const k = is(c, Column) ? keys.get(c) : undefined;
      if (k === undefined) throw new Error(`schema-to-pg: ${tableName}: expression indexes have no rule`);
      return k;
    };
    const tableExtra = extra[exportName];
    const table = pgTable(config.name, builders, (t) => {
      const cols = t as unknown as Record<string, ExtraConfigColumn>;
      const on = (list: readonly unknown[]) => list.map((c) => cols[keyOf(c)]!) as [ExtraConfigColumn];
      return [
        ...config.indexes.map((i) => {
          const built = (i.config.unique ? uniqueIndex : index)(i.config.name).on(...on(i.config.columns));
          return i.config.where ? built.where(remap(i.config.where)) : built;
        }),
        ...config.primaryKeys.map((p) => primaryKey({ name: p.name, columns: on(p.columns) })),
        ...config.uniqueConstraints.map((u) => unique(u.name).on(...on(u.columns))),
        ...config.checks.map((c) => check(c.name, remap(c.value))),
        ...(tableExtra ? tableExtra(cols) : []),
      ];
    });
    bySqlite.set(value, { table: table as unknown as PgTableWithColumns<never>, keys });
    out[exportName] = table;
  }
  return out as PgSchemaOf<M>;
}

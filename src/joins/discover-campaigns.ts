import type { AppContext } from '../context.ts';
import type { DataStore, PgStore, SqliteStore } from '../db/engine.ts';
import type { Logger } from '../logger.ts';
import { type Discover, type DiscoverPage, type DiscoverQuery } from './discover-list.ts';
import { PgDiscover, SqliteDiscover } from './discover-follow.ts';

// Discover is the hottest read in the product: an in-memory list of pre-encoded campaigns
// (discover-list.ts), one per store and process, read by one query definition (discover-reads.ts) and
// kept current from the database by the engine's own means (discover-follow.ts) — SQLite: TEMP triggers
// and PRAGMA data_version; PostgreSQL: LISTEN/NOTIFY, with its own listening connection. Decisions 004,
// 011, 028, 034, 057.

export {
  DISCOVER_LIMIT,
  DISCOVER_MAX_PAGE_SIZE,
  DISCOVER_PAGE_SIZE,
  type Discover,
  type DiscoverPage,
  type DiscoverQuery,
  type InviteStats,
} from './discover-list.ts';

export interface DiscoverOptions {
  cdnUrl: string;
  logger?: Logger;
  /** PostgreSQL: first wait before the listener reconnects (tests use a short one). */
  retryMs?: number;
}

const sqliteLists = new WeakMap<SqliteStore['writer'], SqliteDiscover>();

/**
 * A Discover list on the store, following its writes: on SQLite on the store's writer and reader
 * connections; on PostgreSQL with a listening connection of its own, which `close()` ends — whoever
 * opens one closes it before the store.
 */
export function openDiscover(store: DataStore, options: DiscoverOptions): Discover {
  if (store.kind === 'sqlite') {
    // One per writer connection: its TEMP table of changed ids can feed only one list.
    const sqlite = store as SqliteStore;
    let found = sqliteLists.get(sqlite.writer);
    if (!found) {
      found = new SqliteDiscover(sqlite.writer, sqlite.read.db.$client, options.cdnUrl);
      sqliteLists.set(sqlite.writer, found);
    }
    return found;
  }
  const pg = store as PgStore;
  const connectionString = pg.pool.options.connectionString;
  if (!connectionString) throw new Error('Discover on PostgreSQL needs the pool to have a connection string');
  return new PgDiscover(pg.read, { ...options, connectionString });
}

const lists = new WeakMap<DataStore, Discover>();

/**
 * The process's Discover list of a store (one per store: decision 005), opened at its first use.
 * On PostgreSQL it holds a listening connection until closeDiscover(store), which the owner of the
 * store calls before closing it.
 */
export function discoverFor(store: DataStore, options: DiscoverOptions): Discover {
  let found = lists.get(store);
  if (!found) {
    found = openDiscover(store, options);
    lists.set(store, found);
  }
  return found;
}

/** Waits until the store's Discover list, if one was opened, holds everything committed so far. */
export async function settleDiscover(store: DataStore): Promise<void> {
  await lists.get(store)?.settled();
}

/** Closes the store's Discover list, if one was opened (PostgreSQL: its listening connection). */
export async function closeDiscover(store: DataStore): Promise<void> {
  const found = lists.get(store);
  lists.delete(store);
  await found?.close();
}

type DiscoverContext = Pick<AppContext, 'store' | 'config' | 'logger'> & Partial<Pick<AppContext, 'clock'>>;

function discoverOf(ctx: DiscoverContext): Discover {
  return discoverFor(ctx.store, { cdnUrl: ctx.config.discord.cdnUrl, logger: ctx.logger });
}

/**
 * One page (JSON array of ApiDiscoverServer) of the active campaigns a member can still join: slots
 * left, not canceled, invite working, not joined before, and not the member's own, except own
 * featured campaigns (isMine: their card shows "Your Server"). Featured first, then newest.
 * A value on SQLite (no await per request), a promise on PostgreSQL: `await` it, or see routes.ts.
 */
export function findDiscoverPage(
  ctx: DiscoverContext,
  query: DiscoverQuery,
): DiscoverPage | Promise<DiscoverPage> {
  return discoverOf(ctx).page({ ...query, now: query.now ?? ctx.clock?.now() });
}

/** JSON array (ApiDiscoverServer[]) of active featured campaigns, the member's own included. */
export function findFeaturedCampaignsJson(
  ctx: DiscoverContext,
  userId: string,
  q?: string,
): Buffer | Promise<Buffer> {
  return discoverOf(ctx).featured(userId, q, ctx.clock?.now());
}

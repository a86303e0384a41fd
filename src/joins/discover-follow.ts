import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Statement } from 'better-sqlite3';
import type { Connection } from '../db/client.ts';
import { batchedByKey, rawAll, sqliteSync, sqliteSyncColumn, type Kinded } from '../db/query.ts';
import { pgLib } from '../db/pg-lib.ts';
import type { Logger } from '../logger.ts';
import { errorMessage } from '../ops/error-text.ts';
import {
  DiscoverList,
  type Discover,
  type DiscoverPage,
  type DiscoverQuery,
  type DiscoverRow,
  type DiscoverViewer,
  viewerOf,
} from './discover-list.ts';
import {
  ALL_ACTIVE,
  JOINED_BY,
  JOINED_BY_MEMBERS_PG,
  MEMBER_GUILDS,
  MEMBER_GUILDS_OF_PG,
  ONE_ACTIVE,
  PROFILE,
  SOME_ACTIVE_PG,
} from './discover-reads.ts';
import { parseGuildIds } from './member-guilds.ts';

// How Discover's in-memory list (discover-list.ts) follows the database, per engine (decisions 004/011,
// 028, 033/034, 057). What it reads is one definition (discover-reads.ts); how it learns what changed is
// the engine's own:
//
// - SQLite (SqliteDiscover): synchronous, so a request costs what it did before the async data layer.
//   TEMP triggers (the writer connection only, no migration) record the id of every campaign written
//   through it; the next read re-reads just those rows and moves their entries (no full rebuild per
//   write). PRAGMA data_version changes when another connection commits to the file: then, and only
//   then, everything is rebuilt, since we cannot know what changed. The member's joined campaigns are
//   read per request on the store's read connection.
// - PostgreSQL (PgDiscover): the trigger `servers_discover_notify` (drizzle-pg/0002_discover_notify.sql)
//   notifies the id of every campaign row written, by any process, at commit; this process's listener
//   (startDiscoverListener, its own connection) collects the ids and the list re-reads just those rows —
//   at once, in the background, and in any case before the next read answers. When the listening
//   connection was lost and is back, notifications may have been missed: everything is re-read (onReset),
//   as SQLite does on a data_version change. While no connection listens (start-up, an outage) every read
//   re-reads the whole list, so nothing stale is served. The member's joined campaigns and guild list are
//   read per request, in parallel with any catching up, batched for every member asking in the same
//   event-loop turn (`batchedByKey`, decision 062: the same reads as SQLite's, keyed by `= any(array)`).

// ---------------------------------------------------------------- SQLite

const VERSION_SETUP = `
  CREATE TEMP TABLE IF NOT EXISTS discover_changed (id TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_ins AFTER INSERT ON main.servers
    BEGIN INSERT OR IGNORE INTO discover_changed (id) VALUES (NEW.id); END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_upd AFTER UPDATE ON main.servers
    BEGIN
      INSERT OR IGNORE INTO discover_changed (id) VALUES (OLD.id);
      INSERT OR IGNORE INTO discover_changed (id) VALUES (NEW.id);
    END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_del AFTER DELETE ON main.servers
    BEGIN INSERT OR IGNORE INTO discover_changed (id) VALUES (OLD.id); END;`;

export class SqliteDiscover implements Discover {
  readonly list: DiscoverList;
  private readonly dataVersion: Statement<[], number>;
  private readonly changedIds: Statement<[], string>;
  private readonly clearChanged: Statement<[]>;
  private readonly allActive;
  private readonly oneActive;
  private readonly joined;
  private readonly guilds;
  private readonly profile;
  private dataVersionSeen = -1;

  /**
   * `writer`: the store's writer connection (its TEMP triggers see this process's writes, its
   * data_version the others'); `reader`: the store's read connection (the writer for an in-memory
   * database).
   */
  constructor(writer: Connection, reader: Connection, cdnUrl: string) {
    this.list = new DiscoverList(cdnUrl);
    writer.exec(VERSION_SETUP);
    this.dataVersion = writer.prepare<[], number>('PRAGMA main.data_version').pluck();
    this.changedIds = writer.prepare<[], string>('SELECT id FROM temp.discover_changed').pluck();
    this.clearChanged = writer.prepare('DELETE FROM temp.discover_changed');
    this.allActive = sqliteSync(writer, ALL_ACTIVE);
    this.oneActive = sqliteSync(writer, ONE_ACTIVE);
    // Per request: plain values (better-sqlite3's pluck), as cheap as the hand-written statements were.
    this.joined = sqliteSyncColumn(reader, JOINED_BY);
    this.guilds = sqliteSyncColumn(reader, MEMBER_GUILDS);
    this.profile = sqliteSync(reader, PROFILE);
  }

  current(): void {
    const dataVersion = this.dataVersion.get() ?? 0;
    const changed = this.changedIds.all();
    if (changed.length > 0) this.clearChanged.run();
    if (dataVersion !== this.dataVersionSeen) {
      this.dataVersionSeen = dataVersion;
      this.list.replaceAll(this.allActive.all());
    } else {
      for (const id of changed) this.list.update(id, this.oneActive.get({ id }));
    }
  }

  /** Every read already sees every commit (current() asks the database). */
  settled(): Promise<void> {
    return new Promise((resolve) => {
      this.current();
      resolve();
    });
  }

  page(query: DiscoverQuery): DiscoverPage {
    this.current();
    const values = { userId: query.userId };
    const guildIds = this.guilds.get(values);
    const joined = new Set(this.joined.all(values));
    return this.list.page(
      query,
      guildIds ? this.list.hiddenFor(joined, parseGuildIds(guildIds), query.userId) : joined,
      this.viewer(query.userId, query.now),
    );
  }

  featured(userId: string, q?: string, now?: number): Buffer {
    this.current();
    return this.list.featured(userId, q, this.viewer(userId, now));
  }

  /** The member's profile, read only while some listed campaign has targeting. */
  private viewer(userId: string, now: number | undefined): DiscoverViewer | undefined {
    if (!this.list.hasTargeting) return undefined;
    return viewerOf(this.profile.get({ userId }), now ?? Date.now());
  }

  close(): Promise<void> {
    // The TEMP table and triggers live as long as the connection; nothing to stop.
    return Promise.resolve();
  }
}

// ---------------------------------------------------------------- PostgreSQL

const MAX_IDS_PER_READ = 1000;

export interface PgDiscoverOptions {
  /** The database URL: the listener holds a connection of its own. */
  connectionString: string;
  cdnUrl: string;
  logger?: Logger;
  /** First wait before the listener reconnects (tests use a short one). */
  retryMs?: number;
}

/** What a member's Discover page reads of them on PostgreSQL: completed joins and the guild list. */
interface MemberReads {
  joined: string[];
  guildIds: string | null | undefined;
}

/**
 * The member's two reads, batched for every member asking in one event-loop turn (decision 062): one
 * JOINED_BY_MEMBERS_PG and one MEMBER_GUILDS_OF_PG per turn instead of two statements per request. A
 * handle that is not batched (a transaction) reads JOINED_BY and MEMBER_GUILDS for the one member.
 */
const MEMBER_READS = batchedByKey<MemberReads>(
  (h) => ({
    get: async ({ key }) => {
      const [joined, guilds] = await Promise.all([
        JOINED_BY(h).all({ userId: key }),
        MEMBER_GUILDS(h).get({ userId: key }),
      ]);
      return { joined: joined.map((r) => r.id), guildIds: guilds?.guildIds };
    },
  }),
  (h) => ({
    all: async ({ keys }) => {
      const [joined, guilds] = await Promise.all([
        JOINED_BY_MEMBERS_PG(h).all({ keys }),
        MEMBER_GUILDS_OF_PG(h).all({ keys }),
      ]);
      const byKey = new Map<string, MemberReads & { key: string }>();
      const of = (key: string) => {
        let row = byKey.get(key);
        if (!row) byKey.set(key, (row = { key, joined: [], guildIds: undefined }));
        return row;
      };
      for (const r of joined) of(r.key).joined.push(r.id);
      for (const r of guilds) of(r.key).guildIds = r.guildIds;
      return [...byKey.values()];
    },
  }),
);

export class PgDiscover implements Discover {
  readonly list: DiscoverList;
  private readonly listener: DiscoverListener;
  /** Campaigns notified and not re-read yet. */
  private pending = new Set<string>();
  /** Everything must be re-read (first use, a lost listening connection). */
  private rebuildNeeded = true;
  private syncing: Promise<void> | null = null;
  /** settled(): its marker notifications on their way, and what each one resolves. */
  private readonly markers = new Map<string, () => void>();
  private readonly logger: Logger | undefined;
  private readonly profileQuery;

  /** `read`: the store's read handle (the pool). */
  constructor(
    private readonly read: Kinded,
    options: PgDiscoverOptions,
  ) {
    this.list = new DiscoverList(options.cdnUrl);
    this.logger = options.logger;
    this.profileQuery = PROFILE(read);
    this.listener = startDiscoverListener({
      connectionString: options.connectionString,
      logger: options.logger,
      retryMs: options.retryMs,
      onChanged: (ids) => {
        const arrived: (() => void)[] = [];
        for (const id of ids) {
          const marker = this.markers.get(id);
          if (marker) {
            this.markers.delete(id);
            arrived.push(marker);
          } else this.pending.add(id);
        }
        this.catchUpInBackground();
        for (const resolve of arrived) resolve();
      },
      onReset: () => {
        this.rebuildNeeded = true;
        this.catchUpInBackground();
        this.releaseMarkers();
      },
    });
  }

  /** Resolves once the listening connection is in place (first start). */
  get ready(): Promise<void> {
    return this.listener.ready;
  }

  /** Whether a connection is listening now. */
  get listening(): boolean {
    return this.listener.listening;
  }

  current(): Promise<void> | undefined {
    // Without a listening connection nothing tells us about writes: read everything again.
    if (!this.listener.listening) this.rebuildNeeded = true;
    if (this.syncing) return this.syncing;
    if (!this.rebuildNeeded && this.pending.size === 0) return undefined;
    this.syncing = this.catchUp().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /**
   * A marker notified now is delivered after the notifications of every transaction that committed
   * before it (PostgreSQL delivers them in commit order), so once it is back, current() knows every
   * change committed before the call. Without a listening connection current() re-reads everything.
   */
  async settled(): Promise<void> {
    if (this.listener.listening) {
      const marker = `settled:${randomUUID()}`;
      const back = new Promise<void>((resolve) => this.markers.set(marker, resolve));
      try {
        await rawAll(this.read, sql`select pg_notify(${DISCOVER_CHANNEL}, ${marker})`);
      } catch (err) {
        this.markers.delete(marker);
        throw err;
      }
      await back;
    }
    await this.current();
  }

  async page(query: DiscoverQuery): Promise<DiscoverPage> {
    const [member] = await Promise.all([MEMBER_READS(this.read, query.userId), this.current()]);
    const joined = new Set(member?.joined);
    const guildIds = member?.guildIds;
    return this.list.page(
      query,
      guildIds ? this.list.hiddenFor(joined, parseGuildIds(guildIds), query.userId) : joined,
      await this.viewer(query.userId, query.now),
    );
  }

  featured(userId: string, q?: string, now?: number): Buffer | Promise<Buffer> {
    const catching = this.current();
    if (!catching && !this.list.hasTargeting) return this.list.featured(userId, q);
    return (async () => {
      await catching;
      return this.list.featured(userId, q, await this.viewer(userId, now));
    })();
  }

  /** The member's profile, read only while some listed campaign has targeting. */
  private async viewer(userId: string, now: number | undefined): Promise<DiscoverViewer | undefined> {
    if (!this.list.hasTargeting) return undefined;
    return viewerOf(await this.profileQuery.get({ userId }), now ?? Date.now());
  }

  async close(): Promise<void> {
    await this.listener.close();
    this.releaseMarkers();
    // A catch-up in flight finishes on the pool (its owner closes the pool after this).
    await this.syncing?.catch(() => undefined);
  }

  /** A lost connection (a rebuild follows) or close(): whoever waits in settled() goes on. */
  private releaseMarkers(): void {
    const waiting = [...this.markers.values()];
    this.markers.clear();
    for (const resolve of waiting) resolve();
  }

  private catchUpInBackground(): void {
    this.current()?.catch((err: unknown) => {
      // The next read tries again (the ids stay pending).
      this.logger?.warn('discover: re-reading changed campaigns failed', {
        error: errorMessage(err),
      });
    });
  }

  /** Re-reads what was notified (or everything) until nothing is left; one at a time (`syncing`). */
  private async catchUp(): Promise<void> {
    while (this.rebuildNeeded || this.pending.size > 0) {
      // Many at once (a bulk change, a long pause): one full read costs less than a long id list.
      if (this.pending.size > MAX_IDS_PER_READ) this.rebuildNeeded = true;
      if (this.rebuildNeeded) {
        // Notifications arriving from here on are for commits this read may not see: they stay pending.
        this.rebuildNeeded = false;
        this.pending.clear();
        let rows: DiscoverRow[];
        try {
          rows = await ALL_ACTIVE(this.read).all();
        } catch (err) {
          this.rebuildNeeded = true;
          throw err;
        }
        this.list.replaceAll(rows);
      } else {
        const ids = [...this.pending];
        this.pending.clear();
        let rows: DiscoverRow[];
        try {
          rows = await SOME_ACTIVE_PG(this.read).all({ ids });
        } catch (err) {
          for (const id of ids) this.pending.add(id);
          throw err;
        }
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const id of ids) this.list.update(id, byId.get(id));
      }
    }
  }
}

// ---------------------------------------------------------------- PostgreSQL's change feed
//
// - The trigger `servers_discover_notify` (migration drizzle-pg/0002_discover_notify.sql) calls
//   pg_notify('discover_changed', id) for every campaign row inserted, updated or deleted, as the
//   SQLite TEMP triggers record ids. PostgreSQL delivers notifications at commit (none for a
//   rolled-back transaction) to every session listening, in every process, and folds repeats of one id
//   within a transaction. It catches every writer: no service can forget to publish. The joins table
//   needs no trigger: an entry's "isMine" and the member's joins are read per request.
// - startDiscoverListener keeps one dedicated connection LISTENing and hands the changed ids to the
//   list (batched per event-loop turn). When the connection drops it may have missed notifications:
//   it reconnects with a growing wait and then asks the list to rebuild everything (onReset), like the
//   SQLite path on a data_version change. Correctness never depends on it: a claim re-checks slots in
//   the database.

export const DISCOVER_CHANNEL = 'discover_changed';

export interface DiscoverListenerOptions {
  /** The database URL: the listener holds its own connection (a pooled one would be handed back). */
  connectionString: string;
  /** Campaign ids written since the last call (each once), after their transactions committed. */
  onChanged: (ids: string[]) => void;
  /** The connection was lost and is back: notifications may have been missed, rebuild everything. */
  onReset: () => void;
  logger?: Logger;
  /** First wait before reconnecting (doubles up to maxRetryMs). */
  retryMs?: number;
  maxRetryMs?: number;
}

export interface DiscoverListener {
  /** Resolves once the first LISTEN is in place. */
  ready: Promise<void>;
  /** Whether a connection is listening now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export function startDiscoverListener(options: DiscoverListenerOptions): DiscoverListener {
  const listener = new ReconnectingListener(options);
  void listener.connect();
  return listener;
}

/** One LISTEN connection at a time, reconnected with a doubling wait; notifications batched per tick. */
class ReconnectingListener implements DiscoverListener {
  readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private retryMs: number;
  private client: pg.Client | null = null;
  private isListening = false;
  private closed = false;
  private everConnected = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private pending = new Set<string>();
  private flushQueued = false;

  constructor(private readonly options: DiscoverListenerOptions) {
    this.firstRetryMs = options.retryMs ?? 500;
    this.maxRetryMs = options.maxRetryMs ?? 30_000;
    this.retryMs = this.firstRetryMs;
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
  }

  get listening(): boolean {
    return this.isListening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const current = this.client;
    this.client = null;
    this.isListening = false;
    await current?.end().catch(() => undefined);
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const next = new (pgLib().Client)({
      connectionString: this.options.connectionString,
      application_name: 'coinsync-discover-listener',
    });
    this.client = next;
    next.on('error', (err) => this.lost(next, err.message));
    next.on('end', () => this.lost(next, 'connection ended'));
    next.on('notification', (message) => {
      if (message.channel !== DISCOVER_CHANNEL || !message.payload) return;
      this.pending.add(message.payload);
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(() => this.flush());
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${DISCOVER_CHANNEL}`);
    } catch (err) {
      this.options.logger?.warn('discover listener: could not listen; retrying', {
        error: errorMessage(err),
      });
      this.lost(next, 'connect failed');
      return;
    }
    if (this.closed || this.client !== next) {
      await next.end().catch(() => undefined);
      return;
    }
    this.isListening = true;
    this.retryMs = this.firstRetryMs;
    if (this.everConnected) this.reset();
    this.everConnected = true;
    this.markReady();
  }

  /** Whatever was written while no connection listened is unknown: rebuild. */
  private reset(): void {
    this.pending = new Set();
    try {
      this.options.onReset();
    } catch (err) {
      this.options.logger?.error('discover listener: onReset failed', { error: err });
    }
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending = new Set();
    try {
      this.options.onChanged(ids);
    } catch (err) {
      this.options.logger?.error('discover listener: onChanged failed', { error: err });
    }
  }

  private lost(next: pg.Client, reason: string): void {
    if (this.client !== next) return;
    this.client = null;
    if (this.isListening)
      this.options.logger?.warn('discover listener: connection lost; reconnecting', { reason });
    this.isListening = false;
    void next.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
  }
}

import { randomUUID } from 'node:crypto';
import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { PgDb } from '../db/pg-client.ts';
import { batchedByKey, rawAll, type Kinded } from '../db/query.ts';
import { servers, users } from '../db/schema.pg.ts';
import type { Logger } from '../logger.ts';
import { DISCOVER_CHANNEL, startDiscoverListener, type DiscoverListener } from './discover-notify-pg.ts';
import {
  DiscoverList,
  type Discover,
  type DiscoverPage,
  type DiscoverQuery,
  type DiscoverRow,
  type DiscoverViewer,
  viewerOf,
} from './discover-list.ts';
import { parseGuildIds } from './member-guilds.ts';
import { errorMessage } from '../ops/error-text.ts';

// Discover's list on PostgreSQL (decision 028): the same in-memory list as on SQLite, kept current by
// LISTEN/NOTIFY instead of TEMP triggers and data_version. The trigger `servers_discover_notify`
// (drizzle-pg/0002_discover_notify.sql) notifies the id of every campaign row written, by any process,
// at commit; this process's listener (discover-notify-pg.ts, its own connection) collects the ids and
// the list re-reads just those rows — at once, in the background, and in any case before the next read
// answers. When the listening connection was lost and is back, notifications may have been missed:
// everything is re-read (onReset), as SQLite does on a data_version change. While no connection listens
// (start-up, an outage) every read re-reads the whole list, so nothing stale is served. The member's
// joined campaigns and guild list are read per request, in parallel with any catching up, as one
// statement for every member asking in the same event-loop turn (`batchedByKey`, issue 33 item 2).

const active = and(
  gt(servers.membersRemaining, 0),
  isNull(servers.canceledAt),
  eq(servers.inviteValid, true),
  isNull(servers.botRemovedAt),
);

const columns = {
  id: servers.id,
  ownerId: servers.ownerId,
  name: servers.name,
  inviteLink: servers.inviteLink,
  inviteCode: servers.inviteCode,
  kind: servers.kind,
  serverId: servers.serverId,
  inviteGuildId: servers.inviteGuildId,
  serverIcon: servers.serverIcon,
  coinReward: servers.coinReward,
  membersRemaining: servers.membersRemaining,
  initialMemberSlots: servers.initialMemberSlots,
  // The list's rows carry SQLite's 0/1 flags (its sort order and cursors use them as numbers).
  isFeatured: sql<number>`${servers.isFeatured}::int`,
  featuredAt: servers.featuredAt,
  completionNotificationSent: sql<number>`${servers.completionNotificationSent}::int`,
  createdAt: servers.createdAt,
  minAccountAgeDays: servers.minAccountAgeDays,
  targetLanguage: servers.targetLanguage,
};

const MAX_IDS_PER_READ = 1000;

/** What a member's Discover page reads of them: completed joins and the guild list as last read. */
interface MemberReads {
  /** Campaigns the member completed a join of (only completed joins hide one: a pending join is offered again). */
  joined: string[];
  /** The member's guild list as last read (decision 038): campaigns of guilds they are in are hidden too. */
  guildIds: string | null;
}

/** Both reads for a list of members, one row per member. */
function memberReads(h: Kinded, keys: string[]): Promise<(MemberReads & { key: string })[]> {
  return rawAll(
    h,
    sql`select k.key,
      array(select j.server_id from server_joins j
            where j.user_id = k.key and (j.verified or j.coins_awarded or j.has_left)) as joined,
      (select g.guild_ids from member_guilds g where g.user_id = k.key) as "guildIds"
    from unnest(${sql.param(keys)}::text[]) as k(key)`,
  );
}

const MEMBER_READS = batchedByKey<MemberReads>(
  (h) => ({ get: async ({ key }) => (await memberReads(h, [key]))[0] }),
  (h) => ({ all: ({ keys }) => memberReads(h, keys) }),
);

export interface PgDiscoverOptions {
  /** The database URL: the listener holds a connection of its own. */
  connectionString: string;
  cdnUrl: string;
  logger?: Logger;
  /** First wait before the listener reconnects (tests use a short one). */
  retryMs?: number;
  /** The store's read handle (the pool): the member's reads per request. */
  read: Kinded;
}

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
  private readonly read: Kinded;

  constructor(
    private readonly db: PgDb,
    options: PgDiscoverOptions,
  ) {
    this.list = new DiscoverList(options.cdnUrl);
    this.logger = options.logger;
    this.read = options.read;
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
        await this.db.execute(sql`select pg_notify(${DISCOVER_CHANNEL}, ${marker})`);
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
    const [row] = await this.db
      .select({ discordId: users.discordId, locale: users.locale })
      .from(users)
      .where(eq(users.id, userId));
    return viewerOf(row, now ?? Date.now());
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
      // Many at once (a bulk change, a long pause): one full read costs less than a long IN list.
      if (this.pending.size > MAX_IDS_PER_READ) this.rebuildNeeded = true;
      if (this.rebuildNeeded) {
        // Notifications arriving from here on are for commits this read may not see: they stay pending.
        this.rebuildNeeded = false;
        this.pending.clear();
        let rows: DiscoverRow[];
        try {
          rows = await this.db.select(columns).from(servers).where(active);
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
          rows = await this.db
            .select(columns)
            .from(servers)
            .where(and(inArray(servers.id, ids), active));
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

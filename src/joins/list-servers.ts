import type { Database, Statement } from 'better-sqlite3';
import type { ApiDiscoverServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import { guildIconUrl } from '../discord/discord-api.ts';
import { AppError } from '../shared/errors.ts';
import type { CampaignKind } from '../shared/campaign-kinds.ts';

// Discover is the hottest read in the product. The ordered list of active campaigns is the same for
// everyone, so it is kept in memory, one entry per campaign holding its pre-encoded JSON (twice:
// with "isMine" false and true), and a request costs one indexed read of the member's joins, a scan
// from the cursor and a Buffer.concat of one page (decision 010).
//
// The list is kept current without help from the services that write campaigns:
//  - TEMP triggers (this connection only, no migration) record the id of every campaign written;
//    the next read re-reads just those rows and moves their entries (no full rebuild per write);
//  - PRAGMA data_version changes when another connection commits to the file: then, and only then,
//    everything is rebuilt, since we cannot know what changed.
// Invite statistics (member and online counts, description, banner) come from the invite-stats
// cache and re-encode only the entries of the invite that changed.

/** The featured list carries at most this many campaigns. */
export const DISCOVER_LIMIT = 500;
/** Campaigns per Discover page when the client does not ask for a size. */
export const DISCOVER_PAGE_SIZE = 24;
export const DISCOVER_MAX_PAGE_SIZE = 100;

// Paused campaigns (our bot removed from the guild: nothing could verify a join) are hidden too.
const ACTIVE = `s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1 AND s.bot_removed_at IS NULL`;

const COLUMNS = `s.id, s.owner_id AS ownerId, s.name, s.invite_link AS inviteLink, s.invite_code AS inviteCode, s.kind,
  s.server_id AS serverId, s.server_icon AS serverIcon, s.coin_reward AS coinReward,
  s.members_remaining AS membersRemaining, s.initial_member_slots AS initialMemberSlots,
  s.is_featured AS isFeatured, s.featured_at AS featuredAt,
  s.completion_notification_sent AS completionNotificationSent, s.created_at AS createdAt`;

const ALL_ACTIVE_SQL = `SELECT ${COLUMNS} FROM servers s WHERE ${ACTIVE}`;
const ONE_ACTIVE_SQL = `SELECT ${COLUMNS} FROM servers s WHERE s.id = ? AND ${ACTIVE}`;

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

interface Row {
  id: string;
  ownerId: string;
  name: string;
  inviteLink: string;
  inviteCode: string | null;
  kind: CampaignKind;
  serverId: string | null;
  serverIcon: string | null;
  coinReward: number;
  membersRemaining: number;
  initialMemberSlots: number;
  isFeatured: number;
  featuredAt: number | null;
  completionNotificationSent: number;
  createdAt: number;
}

/** What Discord's invite tells about a guild (GET /invites/{code}?with_counts=true). */
export interface InviteStats {
  memberCount: number | null;
  onlineCount: number | null;
  description: string | null;
  bannerUrl: string | null;
}

const NO_STATS: InviteStats = { memberCount: null, onlineCount: null, description: null, bannerUrl: null };

interface Entry {
  row: Row;
  isFeatured: boolean;
  /** Lower-cased name for the search. */
  search: string;
  other: Buffer;
  mine: Buffer;
}

/** Sort order: featured first, then newest, then id (a total order, so cursors are exact). */
function compare(a: Row, b: { isFeatured: number; createdAt: number; id: string }): number {
  if (a.isFeatured !== b.isFeatured) return b.isFeatured - a.isFeatured;
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Order of the featured list: most recently promoted first. */
function featuredTime(row: Row): number {
  return row.featuredAt ?? row.createdAt;
}

/** The wire object (ApiDiscoverServer); list-servers.test.ts checks it against toApiServer(). */
function toDiscoverServer(row: Row, cdnUrl: string, stats: InviteStats, isMine: boolean): ApiDiscoverServer {
  return {
    id: row.id,
    name: row.name,
    inviteLink: row.inviteLink,
    kind: row.kind,
    serverId: row.serverId,
    serverIcon: row.serverIcon,
    iconUrl: guildIconUrl(cdnUrl, row.serverId, row.serverIcon),
    coinReward: formatCents(row.coinReward),
    membersRemaining: row.membersRemaining,
    initialMemberSlots: row.initialMemberSlots,
    isFeatured: row.isFeatured === 1,
    completionNotificationSent: row.completionNotificationSent === 1,
    createdAt: new Date(row.createdAt).toISOString(),
    memberCount: stats.memberCount,
    onlineCount: stats.onlineCount,
    description: stats.description,
    bannerUrl: stats.bannerUrl,
    // Last: makeEntry() derives the "mine" encoding by swapping this final value.
    isMine,
  };
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

function encodeArray(parts: Buffer[]): Buffer {
  const chunks: Buffer[] = [OPEN];
  parts.forEach((part, i) => {
    if (i > 0) chunks.push(COMMA);
    chunks.push(part);
  });
  chunks.push(CLOSE);
  return Buffer.concat(chunks);
}

// An opaque cursor: the sort key of the last campaign of the previous page, base64url-encoded.
interface CursorKey {
  isFeatured: number;
  createdAt: number;
  id: string;
}

function encodeCursor(row: Row): string {
  return Buffer.from(`${row.isFeatured}.${row.createdAt}.${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): CursorKey {
  const match = /^([01])\.(\d{1,15})\.([\w-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new AppError('bad_request', 'Invalid cursor');
  return { isFeatured: Number(match[1]), createdAt: Number(match[2]), id: match[3]! };
}

export interface DiscoverQuery {
  userId: string;
  limit: number;
  cursor?: string;
  /** Case-insensitive substring of the name, over every listed campaign. */
  q?: string;
  /** true: featured campaigns only; false: regular ones only; undefined: both (spec order). */
  featured?: boolean;
}

export interface DiscoverPage {
  body: Buffer;
  /** Cursor of the next page, or null on the last one. */
  nextCursor: string | null;
}

export class DiscoverCache {
  private readonly dataVersion: Statement<[], number>;
  private readonly changedIds: Statement<[], string>;
  private readonly clearChanged: Statement<[]>;
  private readonly allActive: Statement<[], Row>;
  private readonly oneActive: Statement<[string], Row>;
  private readonly joined: Statement<[string], string>;
  private dataVersionSeen = -1;
  /** Active campaigns in Discover order. */
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  private readonly stats = new Map<string, InviteStats>();
  private readonly statsFetched = new Map<string, number>();
  private featuredBodies: { other: Buffer; owners: Set<string>; mine: Map<string, Buffer> } | null = null;
  /**
   * The first page (no cursor, search or filter) as most members see it — none of its campaigns joined
   * or their own — per page size, encoded once per catalogue change: Discover's hottest answer then
   * costs no encoding and no per-request 10 kB buffer (decision 033).
   */
  private readonly firstPages = new Map<number, DiscoverPage>();
  /** Full rebuilds and single-campaign updates since start (the bench reads them). */
  readonly counters = { rebuilds: 0, updates: 0 };

  constructor(
    sqlite: Database,
    private readonly cdnUrl: string,
  ) {
    sqlite.exec(VERSION_SETUP);
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA main.data_version').pluck();
    this.changedIds = sqlite.prepare<[], string>('SELECT id FROM temp.discover_changed').pluck();
    this.clearChanged = sqlite.prepare('DELETE FROM temp.discover_changed');
    this.allActive = sqlite.prepare<[], Row>(ALL_ACTIVE_SQL);
    this.oneActive = sqlite.prepare<[string], Row>(ONE_ACTIVE_SQL);
    this.joined = sqlite
      // Only completed joins hide a campaign: a pending one is offered again (retry).
      .prepare<[string], string>(
        'SELECT server_id FROM server_joins WHERE user_id = ? AND (verified = 1 OR coins_awarded = 1 OR has_left = 1)',
      )
      .pluck();
  }

  private makeEntry(row: Row): Entry {
    const stats = (row.inviteCode && this.stats.get(row.inviteCode)) || NO_STATS;
    const json = JSON.stringify(toDiscoverServer(row, this.cdnUrl, stats, false));
    if (!json.endsWith(',"isMine":false}')) throw new Error('Discover: isMine must be the last field');
    return {
      row,
      isFeatured: row.isFeatured === 1,
      search: row.name.toLowerCase(),
      other: Buffer.from(json),
      mine: Buffer.from(json.slice(0, -'false}'.length) + 'true}'),
    };
  }

  /** Index of the first entry that sorts after `key`. */
  private indexAfter(key: CursorKey): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(this.entries[mid]!.row, key) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private remove(id: string): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    // The entry sits just before the first entry that sorts after its own key.
    const index = this.indexAfter(entry.row) - 1;
    if (this.entries[index] === entry) this.entries.splice(index, 1);
    else this.entries = this.entries.filter((e) => e !== entry);
  }

  private insert(entry: Entry): void {
    this.entries.splice(this.indexAfter(entry.row), 0, entry);
    this.byId.set(entry.row.id, entry);
  }

  private rebuild(): void {
    this.entries = this.allActive
      .all()
      .sort(compare)
      .map((row) => this.makeEntry(row));
    this.byId.clear();
    for (const entry of this.entries) this.byId.set(entry.row.id, entry);
    this.counters.rebuilds += 1;
  }

  private refresh(): void {
    const dataVersion = this.dataVersion.get() ?? 0;
    const changed = this.changedIds.all();
    if (changed.length > 0) this.clearChanged.run();
    if (dataVersion !== this.dataVersionSeen) {
      this.dataVersionSeen = dataVersion;
      this.rebuild();
    } else if (changed.length > 0) {
      for (const id of changed) {
        this.remove(id);
        const row = this.oneActive.get(id);
        if (row) this.insert(this.makeEntry(row));
      }
      this.counters.updates += changed.length;
    } else {
      return;
    }
    this.featuredBodies = null;
    this.firstPages.clear();
  }

  /** Whether the member sees `entry` on Discover (joined campaigns and non-featured own ones are hidden). */
  private static shows(entry: Entry, userId: string, joined: Set<string>): boolean {
    if (joined.has(entry.row.id)) return false;
    return entry.row.ownerId !== userId;
  }

  /** The shared first page, when it is exactly what page() would build for this member. */
  private sharedFirstPage(limit: number, userId: string, joined: Set<string>): DiscoverPage | undefined {
    const end = Math.min(limit, this.entries.length);
    for (let i = 0; i < end; i++) {
      // An own featured campaign would show as "mine": not the shared bytes either.
      if (!DiscoverCache.shows(this.entries[i]!, userId, joined)) return undefined;
    }
    let more = false;
    for (let i = end; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (joined.has(entry.row.id) || (entry.row.ownerId === userId && !entry.isFeatured)) continue;
      more = true;
      break;
    }
    let page = this.firstPages.get(limit);
    if (!page) {
      const first = this.entries.slice(0, end);
      page = {
        body: encodeArray(first.map((e) => e.other)),
        nextCursor: this.entries.length > end && end > 0 ? encodeCursor(first[end - 1]!.row) : null,
      };
      this.firstPages.set(limit, page);
    }
    return (page.nextCursor !== null) === more ? page : undefined;
  }

  /** One page of Discover for a member: not joined before, not their own unless featured. */
  page(query: DiscoverQuery): DiscoverPage {
    this.refresh();
    const { userId, limit } = query;
    const needle = query.q?.toLowerCase();
    const joined = new Set(this.joined.all(userId));
    if (!query.cursor && !needle && query.featured === undefined) {
      const shared = this.sharedFirstPage(limit, userId, joined);
      if (shared) return shared;
    }
    const start = query.cursor ? this.indexAfter(decodeCursor(query.cursor)) : 0;
    const parts: Buffer[] = [];
    let last: Entry | undefined;
    let more = false;
    for (let i = start; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (query.featured !== undefined && entry.isFeatured !== query.featured) continue;
      const mine = entry.row.ownerId === userId;
      if (mine && !entry.isFeatured) continue;
      if (joined.has(entry.row.id)) continue;
      if (needle && !entry.search.includes(needle)) continue;
      if (parts.length === limit) {
        more = true;
        break;
      }
      parts.push(mine ? entry.mine : entry.other);
      last = entry;
    }
    return { body: encodeArray(parts), nextCursor: more && last ? encodeCursor(last.row) : null };
  }

  /** Every active featured campaign (the member's own included), most recently promoted first. */
  featured(userId: string, q?: string): Buffer {
    this.refresh();
    const needle = q?.toLowerCase();
    if (!needle) {
      // Shared by everyone except owners of a featured campaign (their cards say "Your Server").
      this.featuredBodies ??= {
        other: this.encodeFeatured('', undefined),
        owners: new Set(this.entries.filter((e) => e.isFeatured).map((e) => e.row.ownerId)),
        mine: new Map(),
      };
      if (!this.featuredBodies.owners.has(userId)) return this.featuredBodies.other;
      let body = this.featuredBodies.mine.get(userId);
      if (!body) {
        body = this.encodeFeatured(userId, undefined);
        if (this.featuredBodies.mine.size > 1000) this.featuredBodies.mine.clear();
        this.featuredBodies.mine.set(userId, body);
      }
      return body;
    }
    return this.encodeFeatured(userId, needle);
  }

  private encodeFeatured(userId: string, needle: string | undefined): Buffer {
    const featured = this.entries
      .filter((e) => e.isFeatured && (!needle || e.search.includes(needle)))
      .sort((a, b) => featuredTime(b.row) - featuredTime(a.row) || (a.row.id < b.row.id ? -1 : 1))
      .slice(0, DISCOVER_LIMIT);
    return encodeArray(featured.map((e) => (e.row.ownerId === userId ? e.mine : e.other)));
  }

  /** Invite codes of the listed campaigns (the stats refresher walks them). */
  inviteCodes(): string[] {
    this.refresh();
    return [...new Set(this.entries.flatMap((e) => (e.row.inviteCode ? [e.row.inviteCode] : [])))];
  }

  statsFor(code: string): InviteStats | undefined {
    return this.stats.get(code);
  }

  statsFetchedAt(code: string): number | undefined {
    return this.statsFetched.get(code);
  }

  markStatsFetched(code: string, at: number): void {
    this.statsFetched.set(code, at);
  }

  /** New statistics for one invite: re-encodes only the campaigns that use it. */
  setStats(code: string, stats: InviteStats): void {
    this.stats.set(code, stats);
    let touched = false;
    for (const [id, entry] of this.byId) {
      if (entry.row.inviteCode !== code) continue;
      const fresh = this.makeEntry(entry.row);
      const index = this.entries.indexOf(entry);
      if (index >= 0) this.entries[index] = fresh;
      this.byId.set(id, fresh);
      touched = true;
    }
    if (touched) {
      this.featuredBodies = null;
      this.firstPages.clear();
    }
  }
}

const caches = new WeakMap<Database, DiscoverCache>();

/** The Discover cache of a database connection (one per process: decision 005). */
export function discoverCacheFor(sqlite: Database, cdnUrl: string): DiscoverCache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = new DiscoverCache(sqlite, cdnUrl);
    caches.set(sqlite, cache);
  }
  return cache;
}

/**
 * One page (JSON array of ApiDiscoverServer) of the active campaigns a member can still join: slots
 * left, not canceled, invite working, not joined before, and not the member's own, except own
 * featured campaigns (isMine: their card shows "Your Server"). Featured first, then newest.
 */
export function findDiscoverPage(sqlite: Database, cdnUrl: string, query: DiscoverQuery): DiscoverPage {
  return discoverCacheFor(sqlite, cdnUrl).page(query);
}

/** JSON array (ApiDiscoverServer[]) of active featured campaigns, the member's own included. */
export function findFeaturedServersJson(
  sqlite: Database,
  cdnUrl: string,
  userId: string,
  q?: string,
): Buffer {
  return discoverCacheFor(sqlite, cdnUrl).featured(userId, q);
}

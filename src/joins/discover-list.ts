import type { ApiDiscoverServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import { guildIconUrl } from '../discord/discord-api.ts';
import { AppError } from '../shared/errors.ts';
import type { Campaign } from '../db/schema.ts';
import { languageOfLocale, memberMatches, type MemberProfile } from '../shared/targeting.ts';
import { snowflakeCreatedAt } from '../discord/discord-api.ts';

/** Who is reading, for campaigns with targeting (issue 31 item 2): their profile and the time now. */
export interface DiscoverViewer extends MemberProfile {
  now: number;
}

function isTargeted(row: DiscoverRow): boolean {
  return row.minAccountAgeDays !== null || row.targetLanguage !== null;
}

/** Whether the viewer is in the campaign's audience; everyone is when it has no targeting. */
function fits(entry: Entry, viewer: DiscoverViewer | undefined): boolean {
  if (!viewer || !isTargeted(entry.row)) return true;
  return memberMatches(entry.row, viewer, viewer.now);
}

// Discover's in-memory list (decisions 004, 010, 011, 033), the same on both engines: the ordered list
// of active campaigns is the same for everyone, so it is kept in memory, one entry per campaign
// holding its pre-encoded JSON (twice: with "isMine" false and true), and a request costs a scan from
// the cursor and a Buffer.concat of one page, given the set of campaigns the member joined.
//
// Nothing here reads the database. Each engine keeps the list current in its own way and calls
// replaceAll (everything) or update (one campaign) with the rows of one query definition
// (discover-reads.ts): SQLite with TEMP triggers and PRAGMA data_version, PostgreSQL with LISTEN/NOTIFY
// (both in discover-follow.ts). Invite statistics
// (member and online counts, description, banner) come from the invite-stats job and re-encode only
// the entries of the invite that changed.

/** The featured list carries at most this many campaigns. */
export const DISCOVER_LIMIT = 500;
/** Campaigns per Discover page when the client does not ask for a size. */
export const DISCOVER_PAGE_SIZE = 24;
export const DISCOVER_MAX_PAGE_SIZE = 100;

/**
 * A listed campaign as both engines read it (discover-reads.ts; times in epoch ms): the campaign's
 * columns (schema.ts) but those Discover never reads.
 */
export type DiscoverRow = Omit<
  Campaign,
  | 'featuredRemaining'
  | 'inviteValid'
  | 'botRemovedAt'
  | 'completionDmAttempts'
  | 'completionDmRetryAt'
  | 'ownerUnreachableAt'
  | 'canceledAt'
>;

/** What Discord's invite tells about a guild (GET /invites/{code}?with_counts=true). */
export interface InviteStats {
  memberCount: number | null;
  onlineCount: number | null;
  description: string | null;
  bannerUrl: string | null;
}

const NO_STATS: InviteStats = { memberCount: null, onlineCount: null, description: null, bannerUrl: null };

interface Entry {
  row: DiscoverRow;
  isFeatured: boolean;
  /** Lower-cased name for the search. */
  search: string;
  other: Buffer;
  mine: Buffer;
}

/** Sort order: featured first, then newest, then id (a total order, so cursors are exact). */
function compare(a: DiscoverRow, b: CursorKey): number {
  if (a.isFeatured !== b.isFeatured) return a.isFeatured ? -1 : 1;
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Order of the featured list: most recently promoted first. */
function featuredTime(row: DiscoverRow): number {
  return row.featuredAt ?? row.createdAt;
}

/** The wire object (ApiDiscoverServer); discover-campaigns.test.ts checks it against toApiServer(). */
function toDiscoverServer(
  row: DiscoverRow,
  cdnUrl: string,
  stats: InviteStats,
  isMine: boolean,
): ApiDiscoverServer {
  return {
    id: row.id,
    name: row.name,
    inviteLink: row.inviteLink,
    kind: row.kind,
    serverId: row.guildId,
    serverIcon: row.guildIcon,
    iconUrl: guildIconUrl(cdnUrl, row.guildId, row.guildIcon),
    coinReward: formatCents(row.coinReward),
    membersRemaining: row.membersRemaining,
    initialMemberSlots: row.initialMemberSlots,
    isFeatured: row.isFeatured,
    completionNotificationSent: row.completionNotificationSent,
    createdAt: new Date(row.createdAt).toISOString(),
    targeting: { minAccountAgeDays: row.minAccountAgeDays, language: row.targetLanguage },
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
  isFeatured: boolean;
  createdAt: number;
  id: string;
}

function encodeCursor(row: DiscoverRow): string {
  return Buffer.from(`${row.isFeatured ? 1 : 0}.${row.createdAt}.${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): CursorKey {
  const match = /^([01])\.(\d{1,15})\.([\w-]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new AppError('bad_request', 'Invalid cursor');
  return { isFeatured: match[1] === '1', createdAt: Number(match[2]), id: match[3]! };
}

export interface DiscoverQuery {
  userId: string;
  limit: number;
  cursor?: string;
  /** Case-insensitive substring of the name, over every listed campaign. */
  q?: string;
  /** true: featured campaigns only; false: regular ones only; undefined: both (spec order). */
  featured?: boolean;
  /** The time targeting compares account ages with (the app's clock); Date.now() when absent. */
  now?: number;
}

export interface DiscoverPage {
  body: Buffer;
  /** Cursor of the next page, or null on the last one. */
  nextCursor: string | null;
}

export class DiscoverList {
  /** Active campaigns in Discover order. */
  private entries: Entry[] = [];
  private readonly byId = new Map<string, Entry>();
  /** Campaign ids per Discord guild: members already in a guild do not see its campaigns. */
  private readonly byGuild = new Map<string, Set<string>>();
  private readonly stats = new Map<string, InviteStats>();
  private readonly statsFetched = new Map<string, number>();
  private featuredBodies: { other: Buffer; owners: Set<string>; mine: Map<string, Buffer> } | null = null;
  /**
   * The first page (no cursor, search or filter) as most members see it — none of its campaigns joined
   * or their own — per page size, encoded once per catalogue change: Discover's hottest answer then
   * costs no encoding and no per-request 10 kB buffer (decision 033).
   */
  private readonly firstPages = new Map<number, DiscoverPage>();
  /** Listed campaigns with targeting: while there are none, nobody's profile needs reading. */
  private targeted = 0;
  /** Full rebuilds and single-campaign updates since start (the bench and the tests read them). */
  readonly counters = { rebuilds: 0, updates: 0 };

  constructor(private readonly cdnUrl: string) {}

  private makeEntry(row: DiscoverRow): Entry {
    const stats = (row.inviteCode && this.stats.get(row.inviteCode)) || NO_STATS;
    const json = JSON.stringify(toDiscoverServer(row, this.cdnUrl, stats, false));
    if (!json.endsWith(',"isMine":false}')) throw new Error('Discover: isMine must be the last field');
    return {
      row,
      isFeatured: row.isFeatured,
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
    this.unindexGuild(entry.row);
    if (isTargeted(entry.row)) this.targeted -= 1;
    // The entry sits just before the first entry that sorts after its own key.
    const index = this.indexAfter(entry.row) - 1;
    if (this.entries[index] === entry) this.entries.splice(index, 1);
    else this.entries = this.entries.filter((e) => e !== entry);
  }

  private insert(entry: Entry): void {
    this.entries.splice(this.indexAfter(entry.row), 0, entry);
    this.byId.set(entry.row.id, entry);
    this.indexGuild(entry.row);
    if (isTargeted(entry.row)) this.targeted += 1;
  }

  /** Whether any listed campaign has targeting (then readers pass their DiscoverViewer). */
  get hasTargeting(): boolean {
    return this.targeted > 0;
  }

  /** Replaces the whole list (a fresh read of every active campaign, in any order). */
  replaceAll(rows: DiscoverRow[]): void {
    this.entries = rows.sort(compare).map((row) => this.makeEntry(row));
    this.byId.clear();
    this.byGuild.clear();
    for (const entry of this.entries) {
      this.byId.set(entry.row.id, entry);
      this.indexGuild(entry.row);
    }
    this.targeted = this.entries.filter((e) => isTargeted(e.row)).length;
    this.counters.rebuilds += 1;
    this.changed();
  }

  /** One campaign was written: `row` is its active row now, or undefined when it is not listed any more. */
  update(id: string, row: DiscoverRow | undefined): void {
    this.remove(id);
    if (row) this.insert(this.makeEntry(row));
    this.counters.updates += 1;
    this.changed();
  }

  private indexGuild(row: DiscoverRow): void {
    const guildId = row.guildId ?? row.inviteGuildId;
    if (!guildId) return;
    let ids = this.byGuild.get(guildId);
    if (!ids) this.byGuild.set(guildId, (ids = new Set()));
    ids.add(row.id);
  }

  private unindexGuild(row: DiscoverRow): void {
    const guildId = row.guildId ?? row.inviteGuildId;
    const ids = guildId ? this.byGuild.get(guildId) : undefined;
    if (!ids) return;
    ids.delete(row.id);
    if (ids.size === 0) this.byGuild.delete(guildId!);
  }

  /**
   * The campaigns a member does not see on Discover: `joined` (completed joins) and every campaign of a
   * guild the member is already in (their stored guild list, member_guilds): Discord would not count
   * them as a new member, and only new members earn (decision 038). The member's own campaigns stay
   * (an owner is in their guild): their featured card says "Your Server", as the product spec asks.
   */
  hiddenFor(joined: Set<string>, guildIds: readonly string[], userId: string): Set<string> {
    for (const guildId of guildIds) {
      const ids = this.byGuild.get(guildId);
      if (!ids) continue;
      for (const id of ids) if (this.byId.get(id)?.row.ownerId !== userId) joined.add(id);
    }
    return joined;
  }

  private changed(): void {
    this.featuredBodies = null;
    this.firstPages.clear();
  }

  /** Whether the member sees `entry` on Discover (joined campaigns and non-featured own ones are hidden). */
  private static shows(
    entry: Entry,
    userId: string,
    joined: ReadonlySet<string>,
    viewer: DiscoverViewer | undefined,
  ): boolean {
    if (joined.has(entry.row.id)) return false;
    return entry.row.ownerId !== userId && fits(entry, viewer);
  }

  /** The shared first page, when it is exactly what page() would build for this member. */
  private sharedFirstPage(
    limit: number,
    userId: string,
    joined: ReadonlySet<string>,
    viewer: DiscoverViewer | undefined,
  ): DiscoverPage | undefined {
    const end = Math.min(limit, this.entries.length);
    for (let i = 0; i < end; i++) {
      // An own featured campaign would show as "mine": not the shared bytes either.
      if (!DiscoverList.shows(this.entries[i]!, userId, joined, viewer)) return undefined;
    }
    let more = false;
    for (let i = end; i < this.entries.length; i++) {
      const entry = this.entries[i]!;
      if (joined.has(entry.row.id) || (entry.row.ownerId === userId && !entry.isFeatured)) continue;
      if (entry.row.ownerId !== userId && !fits(entry, viewer)) continue;
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
  page(query: DiscoverQuery, joined: ReadonlySet<string>, viewer?: DiscoverViewer): DiscoverPage {
    const { userId, limit } = query;
    const needle = query.q?.toLowerCase();
    if (!query.cursor && !needle && query.featured === undefined) {
      const shared = this.sharedFirstPage(limit, userId, joined, viewer);
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
      // Targeting: a member outside the campaign's audience does not see it (its owner does).
      if (!mine && !fits(entry, viewer)) continue;
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
  featured(userId: string, q?: string, viewer?: DiscoverViewer): Buffer {
    const needle = q?.toLowerCase();
    // A member outside the audience of a featured campaign gets a list of their own (rare: not cached).
    if (viewer && this.entries.some((e) => e.isFeatured && e.row.ownerId !== userId && !fits(e, viewer)))
      return this.encodeFeatured(userId, needle, viewer);
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

  private encodeFeatured(userId: string, needle: string | undefined, viewer?: DiscoverViewer): Buffer {
    const featured = this.entries
      .filter(
        (e) =>
          e.isFeatured &&
          (!needle || e.search.includes(needle)) &&
          (e.row.ownerId === userId || fits(e, viewer)),
      )
      .sort((a, b) => featuredTime(b.row) - featuredTime(a.row) || (a.row.id < b.row.id ? -1 : 1))
      .slice(0, DISCOVER_LIMIT);
    return encodeArray(featured.map((e) => (e.row.ownerId === userId ? e.mine : e.other)));
  }

  /** Invite codes of the listed campaigns (the stats refresher walks them). */
  inviteCodes(): string[] {
    return [...new Set(this.entries.flatMap((e) => (e.row.inviteCode ? [e.row.inviteCode] : [])))];
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
    if (touched) this.changed();
  }
}

/**
 * Discover on one engine: the list, kept current from the database, and the per-request read of the
 * member's joined campaigns. SQLite answers synchronously (a value: nothing per request that was not
 * there before, decisions 033 and 034); PostgreSQL with a promise. Callers that can await simply await;
 * the route sends a value at once and a promise when it settles.
 */
export interface Discover {
  readonly list: DiscoverList;
  /** One page for a member: not joined before, not their own unless featured. */
  page(query: DiscoverQuery): DiscoverPage | Promise<DiscoverPage>;
  /** Every active featured campaign (the member's own included), most recently promoted first. */
  featured(userId: string, q?: string, now?: number): Buffer | Promise<Buffer>;
  /** Brings the list up to date with what was committed (what page() and featured() do first). */
  current(): void | Promise<void>;
  /**
   * Resolves once everything committed before the call is in the list. On PostgreSQL current() knows
   * only the notifications that have arrived, so a read right after a commit may not see it yet (a few
   * ms); this waits for them. Tests use it where a read follows a write at once.
   */
  settled(): Promise<void>;
  /** Stops following the database (PostgreSQL: closes the listening connection). */
  close(): Promise<void>;
}

/** The viewer of a users row (discord_id, locale): account creation time from the snowflake. */
export function viewerOf(
  row: { discordId: string; locale: string | null } | undefined,
  now: number,
): DiscoverViewer {
  // A user row that vanished (deleted meanwhile) sees what a brand-new account would.
  return {
    accountCreatedAt: row ? snowflakeCreatedAt(row.discordId) : now,
    language: languageOfLocale(row?.locale),
    now,
  };
}

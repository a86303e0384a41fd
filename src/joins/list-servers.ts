import type { Database, Statement } from 'better-sqlite3';

// Discover is the hottest read in the product. The ordered list of active campaigns is the same for
// everyone, so it is kept in memory as one pre-encoded JSON Buffer per campaign and rebuilt only
// when `servers` changes. A request then costs one indexed read of the member's joins, a filter and
// a Buffer.concat. Change detection needs no help from the services that write campaigns:
//  - TEMP triggers (this connection only, no migration) bump a counter on any write to `servers`;
//  - PRAGMA data_version changes when another connection commits to the file.
// The JSON object built here must stay identical to toApiServer() (src/servers/server-view.ts);
// list-servers.test.ts compares the two.

/** Discover shows at most this many campaigns (featured first, then newest). */
export const DISCOVER_LIMIT = 500;

const API_SERVER_JSON = `json_object(
  'id', s.id,
  'ownerId', s.owner_id,
  'name', s.name,
  'inviteLink', s.invite_link,
  'serverId', s.server_id,
  'serverIcon', s.server_icon,
  'iconUrl', CASE WHEN s.server_id IS NOT NULL AND s.server_icon IS NOT NULL
    THEN @cdnUrl || '/icons/' || s.server_id || '/' || s.server_icon || '.png?size=128' END,
  'coinReward', printf('%d.%02d', s.coin_reward / 100, s.coin_reward % 100),
  'membersRemaining', s.members_remaining,
  'initialMemberSlots', s.initial_member_slots,
  'isFeatured', json(CASE WHEN s.is_featured THEN 'true' ELSE 'false' END),
  'completionNotificationSent', json(CASE WHEN s.completion_notification_sent THEN 'true' ELSE 'false' END),
  'createdAt', strftime('%Y-%m-%dT%H:%M:%S', s.created_at / 1000, 'unixepoch') || printf('.%03dZ', s.created_at % 1000)
)`;

const ACTIVE = `s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1`;

const ACTIVE_SQL = `
  SELECT s.id, s.owner_id AS ownerId, s.is_featured AS isFeatured, ${API_SERVER_JSON} AS json
  FROM servers s
  WHERE ${ACTIVE}
  ORDER BY s.is_featured DESC, s.created_at DESC, s.id`;

const FEATURED_SQL = `
  SELECT ${API_SERVER_JSON} AS json
  FROM servers s
  WHERE ${ACTIVE} AND s.is_featured = 1
  ORDER BY COALESCE(s.featured_at, s.created_at) DESC, s.id
  LIMIT ${DISCOVER_LIMIT}`;

const VERSION_SETUP = `
  CREATE TEMP TABLE IF NOT EXISTS discover_servers_version (v INTEGER NOT NULL);
  INSERT INTO discover_servers_version (v) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM discover_servers_version);
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_ins AFTER INSERT ON main.servers
    BEGIN UPDATE discover_servers_version SET v = v + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_upd AFTER UPDATE ON main.servers
    BEGIN UPDATE discover_servers_version SET v = v + 1; END;
  CREATE TEMP TRIGGER IF NOT EXISTS discover_servers_del AFTER DELETE ON main.servers
    BEGIN UPDATE discover_servers_version SET v = v + 1; END;`;

interface ActiveRow {
  id: string;
  ownerId: string;
  isFeatured: number;
  json: string;
}

interface Entry {
  id: string;
  ownerId: string;
  isFeatured: boolean;
  json: Buffer;
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

class DiscoverCache {
  private readonly version: Statement<[], number>;
  private readonly dataVersion: Statement<[], number>;
  private readonly active: Statement<{ cdnUrl: string }, ActiveRow>;
  private readonly featured: Statement<{ cdnUrl: string }, string>;
  private readonly joined: Statement<[string], string>;
  private key = '';
  private entries: Entry[] = [];
  private featuredBody: Buffer = encodeArray([]);

  constructor(
    sqlite: Database,
    private readonly cdnUrl: string,
  ) {
    sqlite.exec(VERSION_SETUP);
    this.version = sqlite.prepare<[], number>('SELECT v FROM temp.discover_servers_version').pluck();
    this.dataVersion = sqlite.prepare<[], number>('PRAGMA main.data_version').pluck();
    this.active = sqlite.prepare<{ cdnUrl: string }, ActiveRow>(ACTIVE_SQL);
    this.featured = sqlite.prepare<{ cdnUrl: string }, string>(FEATURED_SQL).pluck();
    this.joined = sqlite
      // Only completed joins hide a campaign: a pending one is offered again (retry).
      .prepare<[string], string>(
        'SELECT server_id FROM server_joins WHERE user_id = ? AND (verified = 1 OR coins_awarded = 1 OR has_left = 1)',
      )
      .pluck();
  }

  private refresh(): void {
    const key = `${this.version.get() ?? 0}:${this.dataVersion.get() ?? 0}`;
    if (key === this.key) return;
    this.entries = this.active.all({ cdnUrl: this.cdnUrl }).map((row) => ({
      id: row.id,
      ownerId: row.ownerId,
      isFeatured: row.isFeatured === 1,
      json: Buffer.from(row.json),
    }));
    this.featuredBody = encodeArray(
      this.featured.all({ cdnUrl: this.cdnUrl }).map((json) => Buffer.from(json)),
    );
    this.key = key;
  }

  discover(userId: string): Buffer {
    this.refresh();
    const joined = new Set(this.joined.all(userId));
    const parts: Buffer[] = [];
    for (const entry of this.entries) {
      if (parts.length >= DISCOVER_LIMIT) break;
      if (joined.has(entry.id)) continue;
      if (!entry.isFeatured && entry.ownerId === userId) continue;
      parts.push(entry.json);
    }
    return encodeArray(parts);
  }

  featuredList(): Buffer {
    this.refresh();
    return this.featuredBody;
  }
}

const caches = new WeakMap<Database, DiscoverCache>();

function cacheFor(sqlite: Database, cdnUrl: string): DiscoverCache {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = new DiscoverCache(sqlite, cdnUrl);
    caches.set(sqlite, cache);
  }
  return cache;
}

/**
 * JSON array (ApiServer[]) of active campaigns a member can still join: slots left, not canceled,
 * invite working, not joined before, and not the member's own, except own featured campaigns
 * (their card shows "Your Server").
 */
export function findDiscoverServersJson(sqlite: Database, userId: string, cdnUrl: string): Buffer {
  return cacheFor(sqlite, cdnUrl).discover(userId);
}

/** JSON array (ApiServer[]) of active featured campaigns, the member's own included. */
export function findFeaturedServersJson(sqlite: Database, cdnUrl: string): Buffer {
  return cacheFor(sqlite, cdnUrl).featuredList();
}

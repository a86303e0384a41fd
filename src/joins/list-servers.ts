import type { Database, Statement } from 'better-sqlite3';

// Discover is the hottest read in the product. Each list is one prepared statement that filters with
// the indexes (servers_active_idx; "already joined" is an anti-join on the (user_id, server_id)
// unique index) and lets SQLite build the JSON body itself: no ORM layer, no per-row JavaScript
// objects, no JSON.stringify. The object built here must stay identical to toApiServer()
// (src/servers/server-view.ts); list-servers.test.ts compares the two.

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

// json_group_array keeps the order of its input rows (the ordered, limited subquery).
const DISCOVER_SQL = `
  SELECT json_group_array(${API_SERVER_JSON}) FROM (
    SELECT * FROM servers s
    WHERE ${ACTIVE}
      AND (s.is_featured = 1 OR s.owner_id <> @userId)
      AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = @userId AND j.server_id = s.id)
    ORDER BY s.is_featured DESC, s.created_at DESC, s.id
    LIMIT ${DISCOVER_LIMIT}
  ) s`;

const FEATURED_SQL = `
  SELECT json_group_array(${API_SERVER_JSON}) FROM (
    SELECT * FROM servers s
    WHERE ${ACTIVE} AND s.is_featured = 1
    ORDER BY COALESCE(s.featured_at, s.created_at) DESC, s.id
    LIMIT ${DISCOVER_LIMIT}
  ) s`;

interface Statements {
  discover: Statement<{ userId: string; cdnUrl: string }, string>;
  featured: Statement<{ cdnUrl: string }, string>;
}

const cache = new WeakMap<Database, Statements>();

function statements(sqlite: Database): Statements {
  let found = cache.get(sqlite);
  if (!found) {
    found = {
      discover: sqlite.prepare<{ userId: string; cdnUrl: string }, string>(DISCOVER_SQL).pluck(),
      featured: sqlite.prepare<{ cdnUrl: string }, string>(FEATURED_SQL).pluck(),
    };
    cache.set(sqlite, found);
  }
  return found;
}

/**
 * JSON array (ApiServer[]) of active campaigns a member can still join: slots left, not canceled,
 * invite working, not joined before, and not the member's own, except own featured campaigns
 * (their card shows "Your Server").
 */
export function findDiscoverServersJson(sqlite: Database, userId: string, cdnUrl: string): string {
  return statements(sqlite).discover.get({ userId, cdnUrl }) ?? '[]';
}

/** JSON array (ApiServer[]) of active featured campaigns, the member's own included. */
export function findFeaturedServersJson(sqlite: Database, cdnUrl: string): string {
  return statements(sqlite).featured.get({ cdnUrl }) ?? '[]';
}

import type { Database, Statement } from 'better-sqlite3';
import type { ApiServer } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import { guildIconUrl } from '../discord/discord-api.ts';

// Discover is the hottest read in the product: one prepared statement per list, no ORM layer and no
// per-row queries. "Already joined" is an anti-join on the (user_id, server_id) unique index.

/** Discover shows at most this many campaigns (featured first, then newest). */
export const DISCOVER_LIMIT = 500;

interface ServerRow {
  id: string;
  owner_id: string;
  name: string;
  invite_link: string;
  server_id: string | null;
  server_icon: string | null;
  coin_reward: number;
  members_remaining: number;
  initial_member_slots: number;
  is_featured: number;
  completion_notification_sent: number;
  created_at: number;
}

const COLUMNS = `s.id, s.owner_id, s.name, s.invite_link, s.server_id, s.server_icon, s.coin_reward,
  s.members_remaining, s.initial_member_slots, s.is_featured, s.completion_notification_sent, s.created_at`;

const ACTIVE = `s.members_remaining > 0 AND s.canceled_at IS NULL AND s.invite_valid = 1`;

const DISCOVER_SQL = `
  SELECT ${COLUMNS} FROM servers s
  WHERE ${ACTIVE}
    AND (s.is_featured = 1 OR s.owner_id <> @userId)
    AND NOT EXISTS (SELECT 1 FROM server_joins j WHERE j.user_id = @userId AND j.server_id = s.id)
  ORDER BY s.is_featured DESC, s.created_at DESC, s.id
  LIMIT ${DISCOVER_LIMIT}`;

const FEATURED_SQL = `
  SELECT ${COLUMNS} FROM servers s
  WHERE ${ACTIVE} AND s.is_featured = 1
  ORDER BY COALESCE(s.featured_at, s.created_at) DESC, s.id
  LIMIT ${DISCOVER_LIMIT}`;

interface Statements {
  discover: Statement<{ userId: string }, ServerRow>;
  featured: Statement<[], ServerRow>;
}

const cache = new WeakMap<Database, Statements>();

function statements(sqlite: Database): Statements {
  let found = cache.get(sqlite);
  if (!found) {
    found = {
      discover: sqlite.prepare<{ userId: string }, ServerRow>(DISCOVER_SQL),
      featured: sqlite.prepare<[], ServerRow>(FEATURED_SQL),
    };
    cache.set(sqlite, found);
  }
  return found;
}

function toApi(row: ServerRow, cdnUrl: string): ApiServer {
  return {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    inviteLink: row.invite_link,
    serverId: row.server_id,
    serverIcon: row.server_icon,
    iconUrl: guildIconUrl(cdnUrl, row.server_id, row.server_icon),
    coinReward: formatCents(row.coin_reward),
    membersRemaining: row.members_remaining,
    initialMemberSlots: row.initial_member_slots,
    isFeatured: row.is_featured === 1,
    completionNotificationSent: row.completion_notification_sent === 1,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/**
 * Active campaigns a member can still join: slots left, not canceled, invite working, not joined
 * before, and not the member's own (own featured campaigns stay: the card shows "Your Server").
 */
export function findDiscoverServers(sqlite: Database, userId: string, cdnUrl: string): ApiServer[] {
  return statements(sqlite)
    .discover.all({ userId })
    .map((row) => toApi(row, cdnUrl));
}

/** Active featured campaigns, the member's own included. */
export function findFeaturedServers(sqlite: Database, cdnUrl: string): ApiServer[] {
  return statements(sqlite)
    .featured.all()
    .map((row) => toApi(row, cdnUrl));
}

import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { servers } from '../db/schema.ts';

export const ALREADY_FEATURED = 'Already featured';
export const ALREADY_FEATURED_ELSEWHERE = 'Already featured (another campaign)';

/** Whether another active (featured slots left, not canceled) campaign of this Discord guild is featured. */
export function isGuildFeaturedElsewhere(db: DbOrTx, guildId: string, exceptServerId?: string): boolean {
  const row = db
    .select({ id: servers.id })
    .from(servers)
    .where(
      and(
        eq(servers.serverId, guildId),
        eq(servers.isFeatured, true),
        gt(servers.featuredRemaining, 0),
        isNull(servers.canceledAt),
        exceptServerId ? ne(servers.id, exceptServerId) : undefined,
      ),
    )
    .limit(1)
    .get();
  return row !== undefined;
}

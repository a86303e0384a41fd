import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { servers, type Server } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';

/**
 * DELETE /api/campaigns/:id: irreversible and not refunded. The row stays (joins and transactions
 * point at it); it simply has no slots left, so it leaves Discover and My Campaigns.
 */
export function cancelCampaign(ctx: AppContext, userId: string, serverId: string): Server {
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const updated = tx
      .update(servers)
      .set({ canceledAt: now, membersRemaining: 0 })
      .where(and(eq(servers.id, serverId), eq(servers.ownerId, userId), isNull(servers.canceledAt)))
      .returning()
      .get();
    if (updated) return updated;
    const own = tx
      .select({ id: servers.id })
      .from(servers)
      .where(and(eq(servers.id, serverId), eq(servers.ownerId, userId)))
      .get();
    // Another user's campaign behaves like a missing one; an own one that is already canceled is a 404 too (it is gone).
    throw new AppError('not_found', own ? 'Campaign already canceled' : 'Campaign not found');
  });
}

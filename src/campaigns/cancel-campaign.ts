import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { campaignsRepo } from './campaigns-repo.ts';

/**
 * DELETE /api/campaigns/:id: irreversible and not refunded (product spec). The row stays (joins and
 * transactions point at it); it simply has no slots left, so it leaves Discover and My Campaigns.
 * The cancel is one conditional UPDATE (`canceled_at IS NULL`): of two concurrent cancels one applies.
 */
export async function cancelCampaign(ctx: AppContext, userId: string, campaignId: string): Promise<Campaign> {
  const now = ctx.clock.now();
  return ctx.store.transaction(async (tx) => {
    const repo = campaignsRepo(tx);
    const updated = await repo.cancel(userId, campaignId, now);
    if (updated) return updated;
    const own = await repo.findOwn(userId, campaignId);
    // Another user's campaign behaves like a missing one; an own one that is already canceled is a 404 too (it is gone).
    throw new AppError('not_found', own ? 'Campaign already canceled' : 'Campaign not found');
  });
}

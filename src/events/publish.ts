import type { AppContext } from '../context.ts';
import { eq } from 'drizzle-orm';
import { servers } from '../db/schema.ts';
import { getBalance } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import type { LiveEvent } from '../shared/live-events.ts';

// Called after the transaction that changed the balance has committed, so the balance read here is
// the new one (or newer). Never throws and never waits for the bus: the write it reports is done.

export function publishLiveEvent(ctx: AppContext, userId: string, event: LiveEvent): void {
  void ctx.events.publish(userId, event);
}

/** An event carrying the user's balance as it is now. */
export function publishWithBalance(
  ctx: AppContext,
  userId: string,
  build: (balance: string) => LiveEvent,
): void {
  try {
    publishLiveEvent(ctx, userId, build(formatCents(getBalance(ctx.sqlite, userId))));
  } catch (err) {
    ctx.logger.warn('live event not published', {
      userId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Tells the owner their campaign took its last member. */
export function publishCampaignCompleted(ctx: AppContext, campaignId: string): void {
  const campaign = ctx.db
    .select({ ownerId: servers.ownerId, name: servers.name, slots: servers.initialMemberSlots })
    .from(servers)
    .where(eq(servers.id, campaignId))
    .get();
  if (!campaign) return;
  publishLiveEvent(ctx, campaign.ownerId, {
    type: 'campaign_completed',
    serverName: campaign.name,
    members: campaign.slots,
  });
}

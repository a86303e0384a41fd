import type { AppContext } from '../context.ts';
import { getBalance } from '../ledger/index.ts';
import { joinsRepo } from '../joins/joins-repo.ts';
import { formatCents } from '../shared/money.ts';
import type { LiveEvent } from '../shared/live-events.ts';
import { errorMessage } from '../ops/error-text.ts';

// Called after the transaction that changed the balance has committed, so the balance read here is
// the new one (or newer). Reads go through the store's read handle (SQLite: the read-only connection,
// never waiting for a writer; PostgreSQL: the pool). Never rejects and never waits for the bus: the
// write it reports is done; awaiting it keeps one caller's events in order.

export function publishLiveEvent(ctx: Pick<AppContext, 'events'>, userId: string, event: LiveEvent): void {
  void ctx.events.publish(userId, event);
}

/** An event carrying the user's balance as it is now. */
export async function publishWithBalance(
  ctx: Pick<AppContext, 'events' | 'store' | 'logger'>,
  userId: string,
  build: (balance: string) => LiveEvent,
): Promise<void> {
  try {
    publishLiveEvent(ctx, userId, build(formatCents(await getBalance(ctx.store, userId))));
  } catch (err) {
    ctx.logger.warn('live event not published', {
      userId,
      error: errorMessage(err),
    });
  }
}

/** Tells the owner their campaign took its last member. */
export async function publishCampaignCompleted(
  ctx: Pick<AppContext, 'events' | 'store' | 'logger'>,
  campaignId: string,
): Promise<void> {
  try {
    const campaign = await joinsRepo(ctx.store.read).findCampaign(campaignId);
    if (!campaign) return;
    publishLiveEvent(ctx, campaign.ownerId, {
      type: 'campaign_completed',
      serverName: campaign.name,
      members: campaign.initialMemberSlots,
    });
  } catch (err) {
    ctx.logger.warn('live event not published', {
      campaignId,
      error: errorMessage(err),
    });
  }
}

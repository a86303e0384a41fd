import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { servers, users } from '../db/schema.ts';
import { PRODUCT_NAME } from '../app.ts';

// Campaigns whose DM is being sent right now: an event and a reconcile run (or two events) finishing
// the same campaign at the same moment must not both send it. One process runs the bot.
const notifying = new Set<string>();

export function completionMessage(campaignName: string, membersDelivered: number): string {
  const members = `${membersDelivered} new member${membersDelivered === 1 ? '' : 's'}`;
  return `🎉 Your ${PRODUCT_NAME} campaign for **${campaignName}** is complete: ${members} joined your server. Thanks for growing with us!`;
}

/**
 * Sends the owner's "campaign complete" DM once. The flag is set only after Discord accepted the
 * message, so a failure (e.g. 50007, DMs closed) is retried by the next reconcile run.
 */
export async function notifyCompletedCampaign(ctx: AppContext, campaignId: string): Promise<boolean> {
  if (notifying.has(campaignId)) return false;
  notifying.add(campaignId);
  try {
    const campaign = ctx.db
      .select({ name: servers.name, slots: servers.initialMemberSlots, ownerDiscordId: users.discordId })
      .from(servers)
      .innerJoin(users, eq(users.id, servers.ownerId))
      .where(
        and(
          eq(servers.id, campaignId),
          eq(servers.membersRemaining, 0),
          isNull(servers.canceledAt),
          eq(servers.completionNotificationSent, false),
        ),
      )
      .get();
    if (!campaign) return false;
    try {
      await ctx.discord.sendDirectMessage(campaign.ownerDiscordId, {
        content: completionMessage(campaign.name, campaign.slots),
      });
    } catch (err) {
      ctx.logger.warn('completion DM failed; will retry', {
        campaignId,
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    }
    ctx.db.update(servers).set({ completionNotificationSent: true }).where(eq(servers.id, campaignId)).run();
    ctx.logger.info('completion DM sent', { campaignId });
    return true;
  } finally {
    notifying.delete(campaignId);
  }
}

/** Every finished, not canceled campaign whose owner has not been told yet (bot and no-bot alike). */
export async function notifyPendingCompletions(ctx: AppContext): Promise<number> {
  const due = ctx.db
    .select({ id: servers.id })
    .from(servers)
    .where(
      and(
        eq(servers.membersRemaining, 0),
        gt(servers.initialMemberSlots, 0),
        isNull(servers.canceledAt),
        eq(servers.completionNotificationSent, false),
      ),
    )
    .orderBy(asc(servers.createdAt))
    .all();
  let sent = 0;
  for (const { id } of due) if (await notifyCompletedCampaign(ctx, id)) sent += 1;
  return sent;
}

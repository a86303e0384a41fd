import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { inviteOtherServerMessage } from '../shared/campaign-schemas.ts';
import { resolvePermanentInvite } from './discord-checks.ts';
import { campaignsRepo } from './campaigns-repo.ts';

/** The owner's campaign (not canceled), or a 404 — another user's campaign behaves like a missing one. */
async function ownCampaign(ctx: AppContext, userId: string, campaignId: string): Promise<Campaign> {
  const campaign = await campaignsRepo(ctx.store.read).findOwn(userId, campaignId);
  if (!campaign || campaign.canceledAt !== null) throw new AppError('not_found', 'Campaign not found');
  return campaign;
}

/**
 * POST /api/campaigns/:id/invite (issue 12 item 8): the owner replaces an invite that expired or was
 * deleted. The new one must be permanent and lead to the same guild (a campaign is paid for one
 * server); it puts the campaign back on Discover at once, without waiting for the invite recheck.
 */
export async function replaceInvite(
  ctx: AppContext,
  userId: string,
  campaignId: string,
  link: string,
): Promise<Campaign> {
  const before = await ownCampaign(ctx, userId, campaignId);
  const invite = await resolvePermanentInvite(ctx, link);
  const guildId = before.inviteGuildId ?? before.guildId;
  if (guildId !== null && invite.guildId !== guildId) {
    throw new AppError('bad_request', inviteOtherServerMessage(before.name, invite.guildName));
  }
  // Discord was asked above; the write is one conditional UPDATE (not canceled meanwhile).
  const updated = await ctx.store.transaction((tx) =>
    campaignsRepo(tx).replaceInvite(userId, campaignId, {
      link: invite.link,
      code: invite.code,
      ...(before.inviteGuildId === null ? { guildId: invite.guildId } : {}),
    }),
  );
  // Canceled while Discord answered.
  if (!updated) throw new AppError('not_found', 'Campaign not found');
  ctx.logger.info('campaign invite replaced', { campaignId, code: invite.code });
  return updated;
}

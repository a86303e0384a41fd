import type { AppContext } from '../context.ts';
import { joinsRepo } from './joins-repo.ts';
import { guildIconUrl } from '../discord/discord-api.ts';
import { PENDING_JOIN_MAX_AGE_MS } from '../bot/rules.ts';
import type { ApiJoin, ApiJoinState } from '../shared/api-types.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../shared/join-constants.ts';
import { formatCents } from '../shared/money.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** GET /api/joins: every join of the member, newest first, with its state and frozen terms. */
export async function listMyJoins(ctx: AppContext, userId: string): Promise<ApiJoin[]> {
  const now = ctx.clock.now();
  const rows = await joinsRepo(ctx.store.read).listJoinsWithCampaigns(userId);
  return rows.map(({ join, campaign: campaign }) => {
    const noBot = !CAMPAIGN_KIND_RULES[campaign.kind].needsBot;
    const safeToLeaveAt =
      join.verifiedAt !== null && join.coinsAwarded ? join.verifiedAt + (join.minStayMs ?? 0) : null;
    let state: ApiJoinState;
    if (join.hasLeft) state = join.penalized ? 'left_early' : 'left';
    else if (join.coinsAwarded) state = safeToLeaveAt !== null && now < safeToLeaveAt ? 'verified' : 'stayed';
    else if (join.verified) state = join.sameAddress ? 'same_address' : 'no_reward';
    else if (!noBot && join.joinedAt < now - PENDING_JOIN_MAX_AGE_MS) state = 'expired';
    else state = 'waiting';
    const open = campaign.canceledAt === null && campaign.inviteValid && campaign.membersRemaining > 0;
    return {
      id: join.id,
      campaignId: campaign.id,
      serverName: campaign.name,
      iconUrl: guildIconUrl(ctx.config.discord.cdnUrl, campaign.guildId, campaign.guildIcon),
      noBot,
      state,
      joinedAt: new Date(join.joinedAt).toISOString(),
      verifiedAt: iso(join.verifiedAt),
      reward: join.rewardCents === null ? null : formatCents(join.rewardCents),
      penalty: join.penaltyCents === null ? null : formatCents(join.penaltyCents),
      safeToLeaveAt: iso(safeToLeaveAt),
      leftAt: iso(join.leftAt),
      canRetry: (state === 'waiting' || state === 'expired') && open,
      canClaim:
        noBot &&
        state === 'waiting' &&
        now - join.joinedAt >= NOBOT_CLAIM_DELAY_MS &&
        campaign.canceledAt === null,
    };
  });
}

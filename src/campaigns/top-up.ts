import type { AppContext } from '../context.ts';
import type { Campaign } from '../db/schema.ts';
import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { assertCanSpendIn } from '../payments/spend-guard.ts';
import {
  CAMPAIGN_MESSAGES,
  TOP_UP_MESSAGES,
  insufficientForTopUp,
  parseMemberCount,
  type TopUpInput,
} from '../shared/campaign-schemas.ts';
import { CAMPAIGN_KIND_RULES, type CampaignKind } from '../shared/campaign-kinds.ts';
import { formatCents } from '../shared/money.ts';
import { requireGuildManager } from '../auth/user-guilds.ts';
import { requireBotInGuild } from './discord-checks.ts';
import { campaignsRepo } from './campaigns-repo.ts';

// Issue 31 item 4: a campaign that runs low (or ran out) is refilled instead of submitted again. The
// rules are a submission's: the same minimum (3 members), the same price per slot (1 coin), the same
// ledger entry type ('campaign'), the same Discord checks (the owner still manages the guild; bot kinds
// still have our bot there), and one transaction in which the debit is conditional.

/** A featured campaign's top-up buys regular slots (featured slots are bought by promote only). */
function slotKind(kind: CampaignKind): 'regular' | 'nobot' {
  return kind === 'nobot' ? 'nobot' : 'regular';
}

export function topUpCostCents(kind: CampaignKind, members: number): number {
  return members * CAMPAIGN_KIND_RULES[slotKind(kind)].costPerSlotCents;
}

function refuseIfNotTopUppable(campaign: Campaign | undefined): asserts campaign is Campaign {
  if (!campaign) throw new AppError('not_found', 'Campaign not found');
  if (campaign.canceledAt !== null) throw new AppError('conflict', TOP_UP_MESSAGES.canceled);
  if (campaign.initialMemberSlots === 0 && campaign.featuredAt === null)
    throw new AppError('conflict', TOP_UP_MESSAGES.unfunded);
  if (!campaign.inviteValid) throw new AppError('conflict', TOP_UP_MESSAGES.inviteInvalid);
}

/** POST /api/campaigns/:id/top-up */
export async function topUpCampaign(
  ctx: AppContext,
  userId: string,
  campaignId: string,
  input: TopUpInput,
): Promise<Campaign> {
  const members = parseMemberCount(input.members);
  if (members === null) throw new AppError('bad_request', CAMPAIGN_MESSAGES.memberCount);
  const found = await campaignsRepo(ctx.store.read).findOwn(userId, campaignId);
  refuseIfNotTopUppable(found);
  // Discord is asked outside the transaction (decision 034), as a submission does.
  const guildId = found.guildId ?? found.inviteGuildId;
  if (guildId) await requireGuildManager(ctx, userId, { id: guildId, name: found.name }, 'update');
  if (CAMPAIGN_KIND_RULES[found.kind].needsBot && found.guildId) await requireBotInGuild(ctx, found.guildId);
  return applyTopUp(ctx.store, userId, campaignId, members, ctx.clock.now());
}

/**
 * The database half, one transaction: re-read, the spend guard, the slots added, the conditional debit.
 * Of two concurrent top-ups with coins for one, the second's debit refuses and its slots roll back.
 */
export async function applyTopUp(
  store: DataStore,
  userId: string,
  campaignId: string,
  members: number,
  now: number,
): Promise<Campaign> {
  return store.transaction(async (tx) => {
    const repo = campaignsRepo(tx);
    const campaign = await repo.findOwn(userId, campaignId);
    refuseIfNotTopUppable(campaign);
    await assertCanSpendIn(tx, userId, { lockSpender: true });
    const cost = topUpCostCents(campaign.kind, members);
    const balance = await ledger.getBalance(tx, userId);
    if (balance < cost)
      throw new AppError('insufficient_coins', insufficientForTopUp(members, formatCents(balance)));
    const updated = await repo.topUp(userId, campaignId, members);
    // Canceled between the read above and this write (PostgreSQL): nothing was added, nothing is taken.
    if (!updated) throw new AppError('conflict', TOP_UP_MESSAGES.canceled);
    try {
      await ledger.debit(tx, {
        userId,
        cents: cost,
        type: 'campaign',
        description: `Top-up: ${campaign.name} (+${members} ${members === 1 ? 'member' : 'members'})`,
        now,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'insufficient_coins')
        throw new AppError('insufficient_coins', insufficientForTopUp(members, formatCents(balance)));
      throw err;
    }
    return updated;
  });
}

import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, type Server, type ServerJoin } from '../db/schema.ts';
import type { DbOrTx } from '../db/client.ts';
import { isInGuildWithGrace, noBotGuildId } from './guild-membership.ts';
import { AppError } from '../shared/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';
import { sameAddressCheck } from './same-address.ts';
import {
  JOIN_MESSAGES,
  NOBOT_CLAIM_DELAY_MS,
  notInGuildYetMessage,
  sameAddressCappedMessage,
  type ClaimNoBotResponse,
} from '../shared/join-schemas.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';

/** The campaign and the member's join, or the refusal as an AppError (read-only). */
function checkClaimable(
  db: DbOrTx,
  userId: string,
  campaignId: string,
  now: number,
): { server: Server; join: ServerJoin } {
  const server = db.select().from(servers).where(eq(servers.id, campaignId)).get();
  if (!server || server.canceledAt !== null) throw new AppError('not_found', JOIN_MESSAGES.notFound);
  if (CAMPAIGN_KIND_RULES[server.kind].needsBot) throw new AppError('bad_request', JOIN_MESSAGES.botServer);
  const join = db
    .select()
    .from(serverJoins)
    .where(and(eq(serverJoins.userId, userId), eq(serverJoins.serverId, campaignId)))
    .get();
  if (!join) throw new AppError('bad_request', JOIN_MESSAGES.notJoined);
  if (join.coinsAwarded) throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);
  if (now - join.joinedAt < NOBOT_CLAIM_DELAY_MS) throw new AppError('too_early', JOIN_MESSAGES.tooEarly);
  return { server, join };
}

/**
 * Pays the no-bot join reward (spec §4, §9): at least 10 s after the website join, once per join, only
 * once the guild shows in the member's own Discord guild list, and only while the campaign has a slot.
 * Marking the join, taking the slot and the credit happen in one transaction with conditional writes,
 * so concurrent claims pay once and never overdraw the slots.
 */
export async function claimNoBotReward(
  ctx: AppContext,
  userId: string,
  campaignId: string,
): Promise<ClaimNoBotResponse> {
  // The cheap refusals first, then Discord: the member must now be in the guild (their own guild list).
  const { server: before } = checkClaimable(ctx.db, userId, campaignId, ctx.clock.now());
  const guildId = await noBotGuildId(ctx, before);
  if (!guildId || !(await isInGuildWithGrace(ctx, userId, guildId))) {
    // Nothing is written: the join stays pending and can be claimed again once Discord shows the member.
    throw new AppError('conflict', notInGuildYetMessage(before.name));
  }
  const now = ctx.clock.now();
  const paid = ctx.db.transaction((tx) => {
    const { server, join } = checkClaimable(tx, userId, campaignId, now);
    // Same-address rule (decision 022): past the campaign's cap, nothing is written and the member is told.
    const rule = ctx.config.sameAddress;
    const address = sameAddressCheck(tx, rule, {
      memberId: userId,
      ownerId: server.ownerId,
      campaignId,
      now,
    });
    if (address.capped) throw new AppError('forbidden', sameAddressCappedMessage(rule.maxPaidJoins));

    const marked = tx
      .update(serverJoins)
      // No bot watches a no-bot guild, so there is no stay to keep and nothing to charge: frozen as such.
      .set({
        coinsAwarded: true,
        verified: true,
        verifiedAt: now,
        rewardCents: server.coinReward,
        minStayMs: 0,
        penaltyCents: 0,
        sameAddress: address.shared,
      })
      .where(and(eq(serverJoins.id, join.id), eq(serverJoins.coinsAwarded, false)))
      .returning({ id: serverJoins.id })
      .get();
    if (!marked) throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);

    const slot = tx
      .update(servers)
      .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
      .where(and(eq(servers.id, campaignId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .returning({ id: servers.id })
      .get();
    // Throwing rolls back the join flag as well.
    if (!slot) throw new AppError('conflict', JOIN_MESSAGES.noSlots);

    credit(ctx.sqlite, {
      userId,
      cents: server.coinReward,
      type: 'nobot_reward',
      description: `Joined ${server.name}`,
      idempotencyKey: `nobot:${join.id}`,
      now,
    });
    return { name: server.name, cents: server.coinReward };
  });
  // Committed: every open tab of the member learns the reward and the new balance.
  publishWithBalance(ctx, userId, (balance) => ({
    type: 'nobot_reward',
    campaignId,
    serverName: paid.name,
    amount: formatCents(paid.cents),
    balance,
  }));
  return { earned: formatCents(paid.cents) };
}

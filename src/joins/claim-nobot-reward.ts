import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import { JOIN_MESSAGES, NOBOT_CLAIM_DELAY_MS, type ClaimNoBotResponse } from '../shared/join-schemas.ts';

/**
 * Pays the no-bot join reward (spec §4, §9): at least 10 s after the website join, once per join, and
 * only while the campaign has a slot. Marking the join, taking the slot and the credit happen in one
 * transaction with conditional writes, so concurrent claims pay once and never overdraw the slots.
 */
export function claimNoBotReward(ctx: AppContext, userId: string, campaignId: string): ClaimNoBotResponse {
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const server = tx.select().from(servers).where(eq(servers.id, campaignId)).get();
    if (!server || server.canceledAt !== null) throw new AppError('not_found', JOIN_MESSAGES.notFound);
    if (server.serverId !== null) throw new AppError('bad_request', JOIN_MESSAGES.botServer);

    const join = tx
      .select()
      .from(serverJoins)
      .where(and(eq(serverJoins.userId, userId), eq(serverJoins.serverId, campaignId)))
      .get();
    if (!join) throw new AppError('bad_request', JOIN_MESSAGES.notJoined);
    if (join.coinsAwarded) throw new AppError('conflict', JOIN_MESSAGES.alreadyClaimed);
    if (now - join.joinedAt < NOBOT_CLAIM_DELAY_MS) throw new AppError('too_early', JOIN_MESSAGES.tooEarly);

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

    credit(tx, {
      userId,
      cents: server.coinReward,
      type: 'nobot_reward',
      description: `Joined ${server.name}`,
      idempotencyKey: `nobot:${join.id}`,
      now,
    });
    return { earned: formatCents(server.coinReward) };
  });
}

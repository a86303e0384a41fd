import type { AppContext } from '../context.ts';
import * as ledger from '../ledger/index.ts';
import { publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';
import { CAMPAIGN_KIND_RULES, type CampaignKind } from '../shared/campaign-kinds.ts';
import {
  LATE_AUDIT_REFUND_WINDOW_MS,
  MODERATION_AFTER_REMOVAL_MS,
  frozenMinStayMs,
  frozenPenaltyCents,
  type LeaveReason,
} from './rules.ts';
import { botRepo } from './bot-repo.ts';
import { enqueueCampaignEvent } from '../notifications/outbox.ts';

export interface LeaveEvent {
  guildId: string;
  discordUserId: string;
  at: number;
  reason: LeaveReason;
  /**
   * When the bot received the removal, by the wall clock (Discord's time domain); a late kick or ban
   * entry refunds the leave only if it is not later than this (decision 042). Absent for removals found
   * by a sweep or reconciliation (then only the injected clock's `at` is known).
   */
  discordAt?: number;
}

export interface RecordLeaveResult {
  recorded: number;
  penalized: number;
}

/**
 * A paid member left the guild. Leaving on one's own before the minimum stay (counted from the
 * verification) costs the penalty, which may take the balance below zero, and gives the campaign
 * its slot back (a completed campaign becomes active again). Kicks, bans, removals of unknown reason,
 * deleted guilds, leaves of canceled campaigns and leaves after the stay are only recorded. The hasLeft flag is flipped conditionally, so a replayed event
 * or a concurrent reconcile run records (and charges) once.
 */
export async function recordLeave(
  ctx: Pick<AppContext, 'store' | 'logger' | 'events'>,
  event: LeaveEvent,
): Promise<RecordLeaveResult> {
  const charged: { userId: string; name: string; cents: number }[] = [];
  const outcome = await ctx.store.transaction(async (tx) => {
    charged.length = 0; // a PostgreSQL transaction may run again after a deadlock
    const repo = botRepo(tx);
    const result: RecordLeaveResult = { recorded: 0, penalized: 0 };
    const userId = await repo.findUserIdByDiscordId(event.discordUserId);
    if (!userId) return result;

    for (const join of await repo.listOpenPaidJoins(userId, event.guildId)) {
      // The terms frozen at verification decide, not the campaign as it is now (a promotion changes nothing).
      const early = event.at < (join.verifiedAt ?? 0) + frozenMinStayMs(join, join.kind);
      const penaltyCents = frozenPenaltyCents(join, join.kind);
      // Leaving a canceled campaign costs nothing: the penalty would help nobody (issue 12 item 4).
      const penalize = early && event.reason === 'leave' && penaltyCents > 0 && join.canceledAt === null;
      const leave = { at: event.at, reason: event.reason, penalized: penalize, discordAt: event.discordAt };
      if (!(await repo.markLeft(join.joinId, leave))) continue; // recorded meanwhile (a replayed event, a reconcile run, another process)
      result.recorded += 1;
      if (!penalize) continue;
      // The owner paid for a member who did not stay: the slot goes back (not to canceled campaigns).
      // A featured slot goes back to the featured pool while the campaign is still featured. Before the
      // debit, so every transaction of the bot locks the campaign row before the member's (PostgreSQL).
      await repo.giveSlotBack(join.campaignId, isFeaturedSlot(join));
      await ledger.debit(tx, {
        userId,
        cents: penaltyCents,
        type: 'leave_penalty',
        description: `Left ${join.name} early`,
        allowNegative: true,
        idempotencyKey: `leave:${join.joinId}`,
        now: event.at,
      });
      await enqueueCampaignEvent(tx, {
        campaignId: join.campaignId,
        type: 'join.left_early',
        key: `join.left_early:${join.joinId}`,
        at: event.at,
        memberUserId: userId,
        amount: formatCents(penaltyCents),
      });
      charged.push({ userId, name: join.name, cents: penaltyCents });
      result.penalized += 1;
    }
    return result;
  });
  if (outcome.recorded > 0) ctx.logger.info('leave recorded', { ...event, ...outcome });
  // Committed: the member's open tabs learn of the penalty and the new balance.
  for (const c of charged) {
    await publishWithBalance(ctx, c.userId, (balance) => ({
      type: 'penalty_charged',
      serverName: c.name,
      amount: formatCents(c.cents),
      balance,
    }));
  }
  return outcome;
}

/** Whether a join was paid from the campaign's featured pool (and its slot goes back there). */
function isFeaturedSlot(join: { rewardCents: number | null; kind: CampaignKind }): boolean {
  return join.rewardCents === CAMPAIGN_KIND_RULES.featured.rewardCents && join.kind === 'featured';
}

/** The guild is gone: every paid member still counted as present has left, without a penalty. */
export async function recordGuildDeleted(ctx: AppContext, guildId: string, at: number): Promise<number> {
  const changed = await ctx.store.transaction((tx) => botRepo(tx).markGuildJoinsLeft(guildId, at));
  if (changed > 0) ctx.logger.info('guild deleted; joins recorded as left', { guildId, joins: changed });
  return changed;
}

/**
 * A kick or ban whose audit entry Discord wrote after our last look: the removal was charged as a
 * voluntary leave. When the entry arrives (GUILD_AUDIT_LOG_ENTRY_CREATE / GUILD_BAN_ADD) within
 * LATE_AUDIT_REFUND_WINDOW_MS of that charge, it refunds the penalty only if Discord's order of events
 * says the moderator caused that removal (decision 042):
 *   - the entry is newer than the membership (its Discord joined_at), as for a first look, and
 *   - it is not later than the removal the leave was charged for (+ MODERATION_AFTER_REMOVAL_MS): a
 *     ban written after the member had left is about someone already gone, and refunds nothing;
 *   - the slot the leave gave back is taken again in the same transaction: a removal never returns a
 *     slot twice. When another member has already taken it, the penalty stands (it paid for that
 *     member) and the entry is logged.
 * Exactly once per join (`penalized = true` in the statement that clears it, and the refund's ledger key).
 */
export async function refundLateKick(
  ctx: AppContext,
  event: { guildId: string; discordUserId: string; reason: 'kick' | 'ban'; entryAt: number },
): Promise<number> {
  const refunds: { userId: string; name: string; cents: number }[] = [];
  const skipped: { joinId: string; why: string }[] = [];
  const now = ctx.clock.now();
  const count = await ctx.store.transaction(async (tx) => {
    refunds.length = 0; // a PostgreSQL transaction may run again after a deadlock
    skipped.length = 0;
    const repo = botRepo(tx);
    let refunded = 0;
    for (const join of await repo.listChargedLeaves(event.discordUserId, event.guildId)) {
      if ((join.leftAt ?? 0) < now - LATE_AUDIT_REFUND_WINDOW_MS) continue;
      // The entry must be about this membership (newer than its joined_at), as for a first look.
      if (join.discordJoinedAt !== null && event.entryAt <= join.discordJoinedAt) continue;
      // ... and not later than the removal that was charged (Discord's clock; the injected clock's
      // leftAt for rows recorded without it).
      const removedAt = join.leftDiscordAt ?? join.leftAt ?? 0;
      if (event.entryAt > removedAt + MODERATION_AFTER_REMOVAL_MS) {
        skipped.push({ joinId: join.joinId, why: 'entry after the removal' });
        continue;
      }
      if (!(await repo.refundPenaltyOf(join.joinId, event.reason))) continue;
      // The slot went back with the penalty; a kick gives none back, so it is taken again, or nothing
      // is refunded (the penalty paid for the member who took it).
      if (!(await repo.retakeSlot(join.campaignId, isFeaturedSlot(join)))) {
        await repo.restorePenaltyOf(join.joinId);
        skipped.push({ joinId: join.joinId, why: 'slot already taken by another member' });
        continue;
      }
      const cents = frozenPenaltyCents(join, join.kind);
      await ledger.credit(tx, {
        userId: join.userId,
        cents,
        type: 'penalty_refund',
        description: `Removed from ${join.name} by a moderator: penalty refunded`,
        idempotencyKey: `leave-refund:${join.joinId}`,
        now,
      });
      refunds.push({ userId: join.userId, name: join.name, cents });
      refunded += 1;
    }
    return refunded;
  });
  if (count > 0) ctx.logger.info('late audit entry: leave penalty refunded', { ...event, refunded: count });
  if (skipped.length > 0)
    ctx.logger.warn('late audit entry: leave penalty kept', { ...event, joins: skipped });
  // Committed: the member's open tabs learn of the refund and the new balance.
  for (const r of refunds) {
    await publishWithBalance(ctx, r.userId, (balance) => ({
      type: 'penalty_refunded',
      serverName: r.name,
      amount: formatCents(r.cents),
      balance,
    }));
  }
  return count;
}

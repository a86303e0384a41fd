import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { serverJoins, servers, users } from '../db/schema.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { publishWithBalance } from '../events/publish.ts';
import { formatCents } from '../shared/money.ts';
import { CAMPAIGN_KIND_RULES } from '../shared/campaign-kinds.ts';
import {
  LATE_AUDIT_REFUND_WINDOW_MS,
  frozenMinStayMs,
  frozenPenaltyCents,
  type LeaveReason,
} from './rules.ts';

export interface LeaveEvent {
  guildId: string;
  discordUserId: string;
  at: number;
  reason: LeaveReason;
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
export function recordLeave(ctx: AppContext, event: LeaveEvent): RecordLeaveResult {
  const charged: { userId: string; name: string; cents: number }[] = [];
  const outcome = ctx.db.transaction((tx) => {
    const result: RecordLeaveResult = { recorded: 0, penalized: 0 };
    const user = tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.discordId, event.discordUserId))
      .get();
    if (!user) return result;

    const open = tx
      .select({
        joinId: serverJoins.id,
        verifiedAt: serverJoins.verifiedAt,
        minStayMs: serverJoins.minStayMs,
        penaltyCents: serverJoins.penaltyCents,
        rewardCents: serverJoins.rewardCents,
        campaignId: servers.id,
        name: servers.name,
        kind: servers.kind,
        canceledAt: servers.canceledAt,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(
        and(
          eq(serverJoins.userId, user.id),
          eq(servers.serverId, event.guildId),
          eq(serverJoins.coinsAwarded, true),
          eq(serverJoins.hasLeft, false),
        ),
      )
      .all();

    for (const join of open) {
      // The terms frozen at verification decide, not the campaign as it is now (a promotion changes nothing).
      const early = event.at < (join.verifiedAt ?? 0) + frozenMinStayMs(join, join.kind);
      const penaltyCents = frozenPenaltyCents(join, join.kind);
      // Leaving a canceled campaign costs nothing: the penalty would help nobody (issue 12 item 4).
      const penalize = early && event.reason === 'leave' && penaltyCents > 0 && join.canceledAt === null;
      const marked = tx
        .update(serverJoins)
        .set({ hasLeft: true, leftAt: event.at, leftReason: event.reason, penalized: penalize })
        .where(and(eq(serverJoins.id, join.joinId), eq(serverJoins.hasLeft, false)))
        .returning({ id: serverJoins.id })
        .get();
      if (!marked) continue;
      result.recorded += 1;
      if (!penalize) continue;
      debit(ctx.sqlite, {
        userId: user.id,
        cents: penaltyCents,
        type: 'leave_penalty',
        description: `Left ${join.name} early`,
        allowNegative: true,
        idempotencyKey: `leave:${join.joinId}`,
        now: event.at,
      });
      charged.push({ userId: user.id, name: join.name, cents: penaltyCents });
      // The owner paid for a member who did not stay: the slot goes back (not to canceled campaigns).
      // A featured slot goes back to the featured pool while the campaign is still featured.
      const featuredSlot =
        join.rewardCents === CAMPAIGN_KIND_RULES.featured.rewardCents && join.kind === 'featured';
      tx.update(servers)
        .set({
          membersRemaining: sql`${servers.membersRemaining} + 1`,
          ...(featuredSlot ? { featuredRemaining: sql`${servers.featuredRemaining} + 1` } : {}),
        })
        .where(and(eq(servers.id, join.campaignId), isNull(servers.canceledAt)))
        .run();
      result.penalized += 1;
    }
    if (result.recorded > 0) ctx.logger.info('leave recorded', { ...event, ...result });
    return result;
  });
  // Committed: the member's open tabs learn of the penalty and the new balance.
  for (const c of charged) {
    void publishWithBalance(ctx, c.userId, (balance) => ({
      type: 'penalty_charged',
      serverName: c.name,
      amount: formatCents(c.cents),
      balance,
    }));
  }
  return outcome;
}

/** The guild is gone: every paid member still counted as present has left, without a penalty. */
export function recordGuildDeleted(ctx: AppContext, guildId: string, at: number): number {
  const campaignIds = ctx.db
    .select({ id: servers.id })
    .from(servers)
    .where(eq(servers.serverId, guildId))
    .all()
    .map((s) => s.id);
  if (campaignIds.length === 0) return 0;
  const changed = ctx.db
    .update(serverJoins)
    .set({ hasLeft: true, leftAt: at, leftReason: 'guild_deleted' satisfies LeaveReason })
    .where(
      and(
        inArray(serverJoins.serverId, campaignIds),
        eq(serverJoins.coinsAwarded, true),
        eq(serverJoins.hasLeft, false),
      ),
    )
    .run().changes;
  if (changed > 0) ctx.logger.info('guild deleted; joins recorded as left', { guildId, joins: changed });
  return changed;
}

/**
 * A kick or ban whose audit entry Discord wrote after our last look: the removal was charged as a
 * voluntary leave. When the entry arrives (GUILD_AUDIT_LOG_ENTRY_CREATE / GUILD_BAN_ADD) within
 * LATE_AUDIT_REFUND_WINDOW_MS of that charge and is newer than the membership, the penalty is refunded
 * and the slot given back on the leave is taken again if it is still free. Exactly once per join.
 */
export function refundLateKick(
  ctx: AppContext,
  event: { guildId: string; discordUserId: string; reason: 'kick' | 'ban'; entryAt: number },
): number {
  const refunds: { userId: string; name: string; cents: number }[] = [];
  const count = ctx.db.transaction((tx) => {
    const now = ctx.clock.now();
    const charged = tx
      .select({
        joinId: serverJoins.id,
        userId: users.id,
        campaignId: servers.id,
        name: servers.name,
        penaltyCents: serverJoins.penaltyCents,
        rewardCents: serverJoins.rewardCents,
        kind: servers.kind,
        leftAt: serverJoins.leftAt,
        discordJoinedAt: serverJoins.discordJoinedAt,
      })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .innerJoin(users, eq(users.id, serverJoins.userId))
      .where(
        and(
          eq(users.discordId, event.discordUserId),
          eq(servers.serverId, event.guildId),
          eq(serverJoins.penalized, true),
          eq(serverJoins.leftReason, 'leave' satisfies LeaveReason),
        ),
      )
      .all();
    let refunded = 0;
    for (const join of charged) {
      if ((join.leftAt ?? 0) < now - LATE_AUDIT_REFUND_WINDOW_MS) continue;
      // The entry must be about this membership (newer than its joined_at), as for a first look.
      if (join.discordJoinedAt !== null && event.entryAt <= join.discordJoinedAt) continue;
      const flipped = tx
        .update(serverJoins)
        .set({ penalized: false, leftReason: event.reason })
        .where(and(eq(serverJoins.id, join.joinId), eq(serverJoins.penalized, true)))
        .returning({ id: serverJoins.id })
        .get();
      if (!flipped) continue;
      refunds.push({ userId: join.userId, name: join.name, cents: frozenPenaltyCents(join, join.kind) });
      credit(ctx.sqlite, {
        userId: join.userId,
        cents: frozenPenaltyCents(join, join.kind),
        type: 'penalty_refund',
        description: `Removed from ${join.name} by a moderator: penalty refunded`,
        idempotencyKey: `leave-refund:${join.joinId}`,
        now,
      });
      // The slot went back with the penalty; a kick gives none back, so it is taken again if still free.
      const featuredSlot =
        join.rewardCents === CAMPAIGN_KIND_RULES.featured.rewardCents && join.kind === 'featured';
      tx.update(servers)
        .set({
          membersRemaining: sql`${servers.membersRemaining} - 1`,
          ...(featuredSlot ? { featuredRemaining: sql`${servers.featuredRemaining} - 1` } : {}),
        })
        .where(
          and(
            eq(servers.id, join.campaignId),
            featuredSlot
              ? sql`${servers.featuredRemaining} > 0 AND ${servers.membersRemaining} > 0`
              : sql`${servers.membersRemaining} > ${servers.featuredRemaining}`,
          ),
        )
        .run();
      refunded += 1;
    }
    if (refunded > 0) ctx.logger.info('late audit entry: leave penalty refunded', { ...event, refunded });
    return refunded;
  });
  // Committed: the member's open tabs learn of the refund and the new balance.
  for (const r of refunds) {
    void publishWithBalance(ctx, r.userId, (balance) => ({
      type: 'penalty_refunded',
      serverName: r.name,
      amount: formatCents(r.cents),
      balance,
    }));
  }
  return count;
}

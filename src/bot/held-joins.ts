import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { DataStore, DbHandle } from '../db/engine.ts';
import { reconcileHolds } from '../db/schema.ts';
import { changes } from '../db/query.ts';
import { recordHeldJoins, recordHeldResolution } from '../metrics.ts';
import { recordLeave, type RecordLeaveResult } from './record-leave.ts';

// Removals held back by the reconciliation safety valve (issue 29 item 7). Each run that holds a guild
// records its absent members here; a held member stays in reconciliation's scope after its minimum
// stay has passed (it cannot age out silently) until
//   - a later run, the valve no longer holding, settles it — judged at the time it was first found
//     absent, so a penalty due then is still due (`settled`);
//   - it is found in the guild again (`present`);
//   - an operator charges it as a voluntary leave at that first time, or releases it (recorded as left
//     for an unknown reason: no penalty, no slot back), with a reason (`npm run ops -- held ...`).
// Metrics: coinsync_reconcile_held_joins (open holds), coinsync_reconcile_held_resolutions_total.

export type HoldResolution = 'settled' | 'present' | 'charged' | 'released';

export interface HeldJoin {
  guildId: string;
  discordUserId: string;
  firstAbsentAt: number;
  lastAbsentAt: number;
  holds: number;
}

/** The one table every query below reads or writes. */
const t = reconcileHolds;
const COLUMNS = {
  guildId: t.guildId,
  discordUserId: t.discordUserId,
  firstAbsentAt: t.firstAbsentAt,
  lastAbsentAt: t.lastAbsentAt,
  holds: t.holds,
};

/** Records (or renews) holds of these absent members of one guild. */
export async function holdAbsent(
  store: DataStore,
  guildId: string,
  discordUserIds: string[],
  now: number,
): Promise<void> {
  if (discordUserIds.length === 0) return;
  await store.transaction(async (h) => {
    for (const discordUserId of discordUserIds) {
      // An absence seen again: an open hold counts one more look; a resolved one opens anew from `now`.
      await h.q
        .insert(t)
        .values({ guildId, discordUserId, firstAbsentAt: now, lastAbsentAt: now, holds: 1 })
        .onConflictDoUpdate({
          target: [t.guildId, t.discordUserId],
          set: {
            firstAbsentAt: sql<number>`CASE WHEN ${t.resolution} IS NULL THEN ${t.firstAbsentAt} ELSE ${now} END`,
            holds: sql<number>`CASE WHEN ${t.resolution} IS NULL THEN ${t.holds} + 1 ELSE 1 END`,
            lastAbsentAt: now,
            resolution: null,
            resolvedAt: null,
            reason: null,
          },
        })
        .run();
    }
  });
}

/** Open holds, oldest first (of one guild when given). */
export async function listHeld(h: DbHandle, guildId?: string): Promise<HeldJoin[]> {
  return h.q
    .select(COLUMNS)
    .from(t)
    .where(and(isNull(t.resolution), guildId ? eq(t.guildId, guildId) : undefined))
    .orderBy(asc(t.firstAbsentAt))
    .all();
}

/** Resolves an open hold; false when it was not open (resolved meanwhile, or never held). */
export async function resolveHeld(
  store: DataStore,
  hold: { guildId: string; discordUserId: string },
  resolution: HoldResolution,
  now: number,
  reason: string | null = null,
): Promise<boolean> {
  const changed = await store.transaction(async (h) =>
    changes(
      await h.q
        .update(t)
        .set({ resolution, resolvedAt: now, reason })
        .where(
          and(eq(t.guildId, hold.guildId), eq(t.discordUserId, hold.discordUserId), isNull(t.resolution)),
        )
        .run(),
    ),
  );
  if (changed > 0) recordHeldResolution(resolution);
  return changed > 0;
}

/** Refreshes coinsync_reconcile_held_joins; returns the count. */
export async function refreshHeldGauge(h: DbHandle): Promise<number> {
  const count = (await listHeld(h)).length;
  recordHeldJoins(count);
  return count;
}

export class NotHeldError extends Error {}

async function findHeld(h: DbHandle, guildId: string, discordUserId: string): Promise<HeldJoin> {
  const held = (await listHeld(h, guildId)).find((x) => x.discordUserId === discordUserId);
  if (!held) throw new NotHeldError(`No open hold for member ${discordUserId} in guild ${guildId}.`);
  return held;
}

type OperatorContext = Pick<AppContext, 'store' | 'logger' | 'events' | 'clock'>;

/**
 * An operator decides the member really left: charged as a voluntary leave at the time it was first
 * found absent (penalty if that was inside the minimum stay, slot back), through the ledger.
 */
export async function chargeHeld(
  ctx: OperatorContext,
  hold: { guildId: string; discordUserId: string },
  reason: string,
): Promise<RecordLeaveResult> {
  const held = await findHeld(ctx.store.read, hold.guildId, hold.discordUserId);
  const result = await recordLeave(ctx, { ...hold, at: held.firstAbsentAt, reason: 'leave' });
  await resolveHeld(ctx.store, hold, 'charged', ctx.clock.now(), reason);
  ctx.logger.warn('operator: held removal charged', { ...hold, reason, ...result });
  await refreshHeldGauge(ctx.store.read);
  return result;
}

/** An operator lets the member go without a charge: recorded as left for an unknown reason. */
export async function releaseHeld(
  ctx: OperatorContext,
  hold: { guildId: string; discordUserId: string },
  reason: string,
): Promise<RecordLeaveResult> {
  await findHeld(ctx.store.read, hold.guildId, hold.discordUserId);
  const result = await recordLeave(ctx, { ...hold, at: ctx.clock.now(), reason: 'unknown' });
  await resolveHeld(ctx.store, hold, 'released', ctx.clock.now(), reason);
  ctx.logger.warn('operator: held removal released', { ...hold, reason, ...result });
  await refreshHeldGauge(ctx.store.read);
  return result;
}

import { and, eq, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hourlyRewards } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import { REWARDS, type ClaimRewardResponse, type RewardType } from '../shared/rewards-schemas.ts';
import { msUntilClaimable } from './get-reward-status.ts';
import { LAST_CLAIM_COLUMN } from './reward-columns.ts';

const TRANSACTION_TYPE = { regular: 'hourly', bonus: 'bonus', daily: 'daily' } as const;
const DESCRIPTION = { regular: 'Hourly reward', bonus: 'Bonus reward', daily: 'Daily reward' } as const;

/** "23 minutes", "5 hours 12 minutes", "1 minute" (rounded up so it never says 0). */
export function formatWait(ms: number): string {
  const totalMinutes = Math.max(1, Math.ceil(ms / 60_000));
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (hours === 0) return plural(minutes, 'minute');
  if (minutes === 0) return plural(hours, 'hour');
  return `${plural(hours, 'hour')} ${plural(minutes, 'minute')}`;
}

/**
 * Claims one timed reward. The cooldown check and the write are one conditional UPDATE inside the
 * same transaction as the ledger credit, so concurrent claims cannot both pass.
 */
export function claimReward(db: Db, userId: string, type: RewardType, now: number): ClaimRewardResponse {
  const reward = REWARDS[type];
  const column = LAST_CLAIM_COLUMN[type];
  return db.transaction((tx) => {
    tx.insert(hourlyRewards).values({ userId, lastClaimDate: 0 }).onConflictDoNothing({ target: hourlyRewards.userId }).run();
    const claimed = tx
      .update(hourlyRewards)
      .set(lastClaimUpdate(type, now))
      .where(and(eq(hourlyRewards.userId, userId), or(isNull(column), lte(column, now - reward.periodMs))))
      .returning({ id: hourlyRewards.id })
      .get();
    if (!claimed) {
      const row = tx.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId)).get();
      const wait = msUntilClaimable(row, type, now);
      throw new AppError('too_early', `You can claim your ${reward.label} reward again in ${formatWait(wait)}.`);
    }
    credit(tx, { userId, cents: reward.cents, type: TRANSACTION_TYPE[type], description: DESCRIPTION[type], now });
    return { type, earned: formatCents(reward.cents) };
  });
}

function lastClaimUpdate(type: RewardType, now: number): Partial<typeof hourlyRewards.$inferInsert> {
  if (type === 'regular') return { lastClaimDate: now };
  if (type === 'bonus') return { lastBonusClaimDate: now };
  return { lastDailyClaimDate: now };
}

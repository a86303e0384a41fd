import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hourlyRewards } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { credit } from '../ledger/ledger.ts';
import { formatCents } from '../shared/money.ts';
import { REWARDS, type ClaimRewardResponse, type RewardType } from '../shared/rewards-schemas.ts';
import { msUntilClaimable } from './get-reward-status.ts';
import { LAST_CLAIM_COLUMN, LAST_CLAIM_KEY } from './reward-columns.ts';

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
  const statements = claimStatementsFor(db)[type];
  return db.transaction((tx) => {
    statements.ensureRow.run({ id: crypto.randomUUID(), userId });
    const claimed = statements.claim.get({ userId, now, cutoff: now - reward.periodMs });
    if (!claimed) {
      const row = tx.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId)).get();
      const wait = msUntilClaimable(row, type, now);
      throw new AppError(
        'too_early',
        `You can claim your ${reward.label} reward again in ${formatWait(wait)}.`,
      );
    }
    credit(db.$client, {
      userId,
      cents: reward.cents,
      type: TRANSACTION_TYPE[type],
      description: DESCRIPTION[type],
      now,
    });
    return { type, earned: formatCents(reward.cents) };
  });
}

// The claim is the hottest write: its two statements are prepared once per database handle. They run
// on the same connection, so they take part in the transaction claimReward opens.
function prepareClaimStatements(db: Db, type: RewardType) {
  const column = LAST_CLAIM_COLUMN[type];
  const userId = sql.placeholder('userId');
  return {
    ensureRow: db
      .insert(hourlyRewards)
      .values({ id: sql.placeholder('id'), userId, lastClaimDate: 0 })
      .onConflictDoNothing({ target: hourlyRewards.userId })
      .prepare(),
    claim: db
      .update(hourlyRewards)
      .set({ [LAST_CLAIM_KEY[type]]: sql.placeholder('now') })
      .where(
        and(eq(hourlyRewards.userId, userId), or(isNull(column), lte(column, sql.placeholder('cutoff')))),
      )
      .returning({ id: hourlyRewards.id })
      .prepare(),
  };
}

type ClaimStatements = Record<RewardType, ReturnType<typeof prepareClaimStatements>>;
const claimStatementCache = new WeakMap<Db, ClaimStatements>();

function claimStatementsFor(db: Db): ClaimStatements {
  let statements = claimStatementCache.get(db);
  if (!statements) {
    statements = {
      regular: prepareClaimStatements(db, 'regular'),
      bonus: prepareClaimStatements(db, 'bonus'),
      daily: prepareClaimStatements(db, 'daily'),
    };
    claimStatementCache.set(db, statements);
  }
  return statements;
}

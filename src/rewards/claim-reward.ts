import { autocommitHandle, type DataStore, type DbHandle } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { formatCents } from '../shared/money.ts';
import { REWARDS, type ClaimRewardResponse, type RewardType } from '../shared/rewards-schemas.ts';
import { msAfterLastClaim, msUntilClaimable } from './get-reward-status.ts';
import { claimAndCredit } from './claim-group.ts';
import { rewardsRepo } from './rewards-repo.ts';
import { scheduleRewardReady, wantsRewardReady } from '../reminders/schedule-reminders.ts';

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
 * Claims one timed reward. The cooldown check and the write are one conditional write (the
 * repository's `claim`) inside the same transaction as the ledger credit, so concurrent claims cannot
 * both pass, on either engine. On PostgreSQL the usual claim is first tried as ONE statement that is its
 * own transaction (`claimAndCredit`: the same conditional write, the ledger's credit items and the
 * reminder-setting read); what that statement leaves to the transaction, it has not written.
 */
export async function claimReward(
  store: DataStore,
  userId: string,
  type: RewardType,
  now: number,
): Promise<ClaimRewardResponse> {
  const reward = REWARDS[type];
  const credit = {
    userId,
    cents: reward.cents,
    type: TRANSACTION_TYPE[type],
    description: DESCRIPTION[type],
    now,
  };
  const single = autocommitHandle(store);
  if (single) {
    // PostgreSQL: the claim, its credit and the reminder-setting read as ONE statement (one round trip, no
    // BEGIN/COMMIT: decision 062, session 14); what it cannot finish alone (the member wants the "ready"
    // reminder, a refused credit) it leaves undone, for the transaction below.
    const done = await claimAndCredit(single, { userId, type, now, cutoff: now - reward.periodMs }, credit);
    if (done.outcome === 'credited') return { type, earned: formatCents(reward.cents) };
    if (done.outcome === 'too_early') {
      // The statement read the last claim that refused it: no second round trip for the wait. A claim
      // committed by another request after the statement's snapshot can refuse it with an older time
      // there (no wait left by it): then the wait is read.
      const wait = msAfterLastClaim(done.lastClaim, type, now);
      throw wait > 0 ? tooEarlyError(type, wait) : await tooEarly(store.read, userId, type, now);
    }
  }
  // SQLite: the claims of one event-loop turn share one transaction, each in its own savepoint (a group
  // commit, decision 046 "Session 16"); each caller gets its own outcome after the shared COMMIT.
  return store.groupTransaction(async (tx) => {
    const rewards = rewardsRepo(tx);
    // The reminder setting is read together with the conditional write (on PostgreSQL both go out with
    // the transaction's BEGIN, one round trip: issue 33 item 2); it only matters once the claim stands.
    const wanted = wantsRewardReady(tx, userId, type);
    wanted.catch(() => undefined);
    if (!(await rewards.claim(userId, type, now, now - reward.periodMs))) {
      throw await tooEarly(tx, userId, type, now);
    }
    await ledger.credit(tx, credit);
    await scheduleRewardReady(tx, userId, type, now, wanted);
    return { type, earned: formatCents(reward.cents) };
  });
}

/** The answer to a claim before its cooldown has passed (the wait read from `h`). */
async function tooEarly(h: DbHandle, userId: string, type: RewardType, now: number): Promise<AppError> {
  return tooEarlyError(type, msUntilClaimable(await rewardsRepo(h).find(userId), type, now));
}

function tooEarlyError(type: RewardType, wait: number): AppError {
  return new AppError(
    'too_early',
    `You can claim your ${REWARDS[type].label} reward again in ${formatWait(wait)}.`,
  );
}

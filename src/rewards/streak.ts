import type { DbHandle } from '../db/engine.ts';
import { rewardsRepo } from './rewards-repo.ts';

// Daily streaks, for showing only (issue 32 item 3; decision 045): the spec's amounts do not change.
//
// How a "day" counts: by the daily reward's own 24-hour cooldown, not by calendar days. A daily claim
// continues the streak when it comes within 48 hours of the previous daily claim, i.e. within 24 hours
// of the reward becoming claimable again. Calendar days (in UTC or any zone) would punish the member who
// claims every time the reward is ready: a claim at 23:30 makes the next one possible at 23:30 the next
// day, and a claim at 00:10 the day after skips a calendar day although the member never missed a
// chance. The cooldown rule needs no time zone and cannot be gamed (two claims are always >= 24 h apart).

/** A daily claim continues the streak when it comes at most this long after the previous one. */
export const STREAK_WINDOW_MS = 48 * 60 * 60 * 1000;

export interface DailyStreak {
  /** Daily claims in the current unbroken run; 0 once the window after the last claim has passed. */
  current: number;
  /** The longest run ever, including the current one. */
  best: number;
}

/** The streak from the daily claim times (ascending, milliseconds) as seen at `now`. */
export function computeStreak(claimTimes: readonly number[], now: number): DailyStreak {
  let run = 0;
  let best = 0;
  let previous: number | undefined;
  for (const at of claimTimes) {
    run = previous !== undefined && at - previous <= STREAK_WINDOW_MS ? run + 1 : 1;
    best = Math.max(best, run);
    previous = at;
  }
  const alive = previous !== undefined && now - previous <= STREAK_WINDOW_MS;
  return { current: alive ? run : 0, best };
}

/** The member's daily streak, computed from their daily-reward transactions (the ledger's record). */
export async function getDailyStreak(h: DbHandle, userId: string, now: number): Promise<DailyStreak> {
  return computeStreak(await rewardsRepo(h).dailyClaimTimes(userId), now);
}

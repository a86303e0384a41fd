import { DAY } from '../clock.ts';

// Business constants of bot-verified joins (spec §9).

/** How long a verified member must stay before leaving is free: 2 days regular, 5 days featured. */
export const MIN_STAY_MS = { regular: 2 * DAY, featured: 5 * DAY } as const;

/** Charged (hundredths) when a member leaves before the minimum stay. */
export const LEAVE_PENALTY_CENTS = 200;

/** A website join is waited for this long; older pending joins are neither verified nor reconciled. */
export const PENDING_JOIN_MAX_AGE_MS = 7 * DAY;

/** Audit log entries up to this long before the join was verified still count (Discord vs our clock). */
export const AUDIT_CLOCK_SKEW_MS = 5 * 60 * 1000;

export type LeaveReason = 'leave' | 'kick' | 'ban' | 'guild_deleted';

export function minimumStayMs(isFeatured: boolean): number {
  return isFeatured ? MIN_STAY_MS.featured : MIN_STAY_MS.regular;
}

// Join rewards paid to members, in hundredths (spec §9).
export const REGULAR_REWARD_CENTS = 50;
export const FEATURED_REWARD_CENTS = 75;
export const NOBOT_REWARD_CENTS = 20;

/** What a member is promised when a join is verified; stored on the join row and never changed after. */
export interface JoinTerms {
  rewardCents: number;
  minStayMs: number;
  penaltyCents: number;
}

/** Terms of a featured slot (the campaign's featured pool is taken first) or a regular one. */
export function joinTerms(featuredSlot: boolean): JoinTerms {
  return featuredSlot
    ? {
        rewardCents: FEATURED_REWARD_CENTS,
        minStayMs: MIN_STAY_MS.featured,
        penaltyCents: LEAVE_PENALTY_CENTS,
      }
    : {
        rewardCents: REGULAR_REWARD_CENTS,
        minStayMs: MIN_STAY_MS.regular,
        penaltyCents: LEAVE_PENALTY_CENTS,
      };
}

/** Frozen minimum stay of a join; rows verified before terms were stored fall back to the campaign's kind. */
export function frozenMinStayMs(join: { minStayMs: number | null }, isFeatured: boolean): number {
  return join.minStayMs ?? minimumStayMs(isFeatured);
}

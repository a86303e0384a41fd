import { DAY } from '../clock.ts';

// Business constants of bot-verified joins (spec §9).

/** How long a verified member must stay before leaving is free: 2 days regular, 5 days featured. */
export const MIN_STAY_MS = { regular: 2 * DAY, featured: 5 * DAY } as const;

/** Charged (hundredths) when a member leaves before the minimum stay. */
export const LEAVE_PENALTY_CENTS = 200;

/** A website join is waited for this long; older pending joins are neither verified nor reconciled. */
export const PENDING_JOIN_MAX_AGE_MS = 7 * DAY;

/**
 * For joins verified without Discord's joined_at (older rows): audit entries up to this long before the
 * verification still count (Discord's clock vs ours). Short, so an old kick cannot excuse a new leave.
 */
export const AUDIT_CLOCK_SKEW_MS = 2 * 1000;

/** Discord's joined_at may be this much before our website join and still count as joining after it (clock skew). */
export const JOINED_AT_CLOCK_SKEW_MS = 2 * 60 * 1000;

/** unknown: the removal's reason could not be established — no penalty, and no slot back. */
export type LeaveReason = 'leave' | 'kick' | 'ban' | 'unknown' | 'guild_deleted';

export function minimumStayMs(isFeatured: boolean): number {
  return isFeatured ? MIN_STAY_MS.featured : MIN_STAY_MS.regular;
}

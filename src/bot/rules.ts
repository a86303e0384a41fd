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

import { DAY } from '../clock.ts';
import {
  CAMPAIGN_KIND_RULES,
  joinTermsOf,
  type CampaignKind,
  type JoinTerms,
} from '../shared/campaign-kinds.ts';

export type { JoinTerms } from '../shared/campaign-kinds.ts';

// Timing rules of bot-verified joins. The per-kind numbers (reward, minimum stay, penalty) live in
// src/shared/campaign-kinds.ts, the one table of campaign kinds.

/** A website join is waited for this long; older pending joins are neither verified nor reconciled. */
export const PENDING_JOIN_MAX_AGE_MS = 7 * DAY;

/**
 * For joins verified without Discord's joined_at (older rows): audit entries up to this long before the
 * verification still count (Discord's clock vs ours). Short, so an old kick cannot excuse a new leave.
 */
export const AUDIT_CLOCK_SKEW_MS = 2 * 1000;

/** Discord's joined_at may be this much before our website join and still count as joining after it (clock skew). */
export const JOINED_AT_CLOCK_SKEW_MS = 2 * 60 * 1000;

/**
 * A kick's audit entry can arrive after the removal was already charged as a leave (Discord writes
 * entries asynchronously); within this long of the charge, the penalty is refunded.
 */
export const LATE_AUDIT_REFUND_WINDOW_MS = 10 * 60 * 1000;

/**
 * Settlement by the order of events in Discord (decision 042): a kick, ban or prune explains a removal
 * only if Discord stamped it (audit entry snowflake, or receipt of GUILD_BAN_ADD) no later than this
 * after the bot received the GUILD_MEMBER_REMOVE. Discord writes the entry when the moderator acts,
 * before it dispatches the removal; the margin covers its clock against ours (NTP: milliseconds). A ban
 * written later is about someone who had already left (a ban after a leave): it changes nothing about
 * that leave, whether it arrives before our second look or after the charge.
 */
export const MODERATION_AFTER_REMOVAL_MS = 2 * 1000;

/** unknown: the removal's reason could not be established — no penalty, and no slot back. */
export type LeaveReason = 'leave' | 'kick' | 'ban' | 'unknown' | 'guild_deleted';

/** The longest minimum stay of any bot kind: reconciliation looks back this far for members still inside theirs. */
export const LONGEST_MIN_STAY_MS = Math.max(
  CAMPAIGN_KIND_RULES.regular.minStayMs,
  CAMPAIGN_KIND_RULES.featured.minStayMs,
);

/** Terms of a featured slot (the campaign's featured pool is taken first) or a regular one (campaign-kinds.ts). */
export function joinTerms(featuredSlot: boolean): JoinTerms {
  return joinTermsOf(featuredSlot ? 'featured' : 'regular');
}

/** Frozen minimum stay of a join; rows verified before terms were stored fall back to the campaign's kind. */
export function frozenMinStayMs(join: { minStayMs: number | null }, kind: CampaignKind): number {
  return join.minStayMs ?? CAMPAIGN_KIND_RULES[kind === 'featured' ? 'featured' : 'regular'].minStayMs;
}

/** Frozen early-leave penalty of a join; older rows fall back to the bot kinds' penalty. */
export function frozenPenaltyCents(join: { penaltyCents: number | null }, kind: CampaignKind): number {
  return join.penaltyCents ?? CAMPAIGN_KIND_RULES[kind === 'featured' ? 'featured' : 'regular'].penaltyCents;
}

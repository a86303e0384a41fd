// Zod-free constants of the join endpoints (spec §7, §9), so the web app can use them without
// bundling zod. join-schemas.ts re-exports them for the API.
import { rewardText } from './campaign-kinds.ts';

/** Seconds a member waits after a no-bot join before the reward can be claimed (spec §9). */
export const NOBOT_CLAIM_DELAY_MS = 10_000;

/** Shown for a campaign without a stored reward (spec §9): the regular reward. */
export const DEFAULT_JOIN_REWARD = rewardText('regular');

export const JOIN_MESSAGES = {
  notFound: 'Server not found',
  ownServer: 'You cannot join your own server',
  noSlots: 'This server has no member slots left',
  alreadyJoined: 'You have already joined this server',
  alreadyMember: 'You are already a member of this server. Only new members earn coins.',
  discordDown: 'Could not reach Discord. Please try again.',
  tooEarly: 'Please wait a few more seconds before claiming.',
  alreadyClaimed: 'Reward already claimed',
  notJoined: 'Join this server before claiming its reward',
  botServer: 'Coins for this server arrive once our bot sees you join',
} as const;

/** A Discord account younger than the configured minimum earns nothing from joins (sybil rule). */
export function accountTooNewMessage(minDays: number, eligibleOn: string): string {
  return `Your Discord account must be at least ${minDays} days old to earn coins from joins. You can join servers from ${eligibleOn}.`;
}

/**
 * The same-address rule (decision 022): a campaign pays only a few members who share an internet
 * connection (address) with its owner.
 */
export function sameAddressCappedMessage(maxPaidJoins: number): string {
  return `You share an internet connection with this server's owner, and it has already paid the ${maxPaidJoins} members it can from one connection. Joins from your connection earn nothing here.`;
}

/** A no-bot claim whose guild is not (yet) in the member's own Discord guild list. */
export function notInGuildYetMessage(serverName: string): string {
  return `We can't see you in ${serverName} yet — accept the invite, then try again.`;
}

// Zod-free constants of the join endpoints (docs/spec/product-spec.md §7, §9), so the web app can use them without
// bundling zod. join-schemas.ts re-exports them for the API.
import { rewardText } from './campaign-kinds.ts';

/** Seconds a member waits after a no-bot join before the reward can be claimed (docs/spec/product-spec.md §9). */
export const NOBOT_CLAIM_DELAY_MS = 10_000;

/** Shown for a campaign without a stored reward (docs/spec/product-spec.md §9): the regular reward. */
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

/** Whether a claim refusal is notInGuildYetMessage (the web app then retries quietly and offers Claim). */
export function isNotInGuildYetMessage(message: string | null | undefined): boolean {
  return (
    typeof message === 'string' &&
    message.startsWith("We can't see you in ") &&
    message.endsWith(' yet — accept the invite, then try again.')
  );
}

/** A no-bot claim refused as "not in the guild yet" is tried again quietly this often, this many times (2 min). */
export const NOBOT_NOT_YET_RETRY_MS = 5_000;
export const NOBOT_NOT_YET_RETRIES = 24;

// ---- Members' Discord accounts (decision 038) ----

/** Discord's cap on the servers one account can be in, and with Nitro (`premium_type` 2). */
export const DISCORD_GUILD_CAP = 100;
export const DISCORD_NITRO_GUILD_CAP = 200;
/** Discord's `premium_type` of full Nitro (0 none, 1 Nitro Classic, 2 Nitro, 3 Nitro Basic). */
export const PREMIUM_TYPE_NITRO = 2;

/** The server cap of an account with this `premium_type` (null: not known, the lower cap). */
export function guildCapFor(premiumType: number | null | undefined): number {
  return premiumType === PREMIUM_TYPE_NITRO ? DISCORD_NITRO_GUILD_CAP : DISCORD_GUILD_CAP;
}

/** Default join pace per member (JOIN_PACE_PER_HOUR / JOIN_PACE_PER_DAY; decision 038 gives the sources). */
export const DEFAULT_JOIN_PACE = { perHour: 6, perDay: 24 } as const;

/** "12 min", "1 h 5 min", "45 s": how long until the next join. */
export function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** The pace refusal (429). */
export function joinPaceMessage(
  waitMs: number,
  pace: { perHour: number; perDay: number },
  daily: boolean,
): string {
  const rule = daily ? `${pace.perDay} servers a day` : `${pace.perHour} servers an hour`;
  return `To keep your Discord account safe, you can join ${rule}. Next join in ${waitText(waitMs)}.`;
}

/** A join that would pass Discord's server cap; `leavable` are servers whose minimum stay is over. */
export function guildCapMessage(cap: number, leavable: readonly string[]): string {
  const head = `Your Discord account is in ${cap} servers, the most Discord allows${cap === DISCORD_GUILD_CAP ? ' without Nitro' : ''}: Discord would refuse this invite.`;
  if (leavable.length === 0)
    return `${head} Leave a server in Discord first; none of your joins here is past its minimum stay yet (see My Joins).`;
  const shown = leavable.slice(0, 5);
  const more = leavable.length > shown.length ? ` and ${leavable.length - shown.length} more` : '';
  const servers = shown.join(', ') + more;
  return `${head} Already safe to leave: ${servers}.`;
}

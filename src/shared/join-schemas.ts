import { z } from 'zod';

// Request/response contracts of the join endpoints (spec §7), shared by the API and the web app.

/** `:id` of /api/servers/:id/join and /api/servers/:id/claim-nobot (a campaign id). */
export const serverIdParamsSchema = z.object({
  id: z.string({ message: 'Server not found' }).trim().min(1, 'Server not found').max(64, 'Server not found'),
});
export type ServerIdParams = z.infer<typeof serverIdParamsSchema>;

/** POST /api/servers/:id/join */
export const joinServerResponseSchema = z.object({
  /** The campaign's coinReward, e.g. "0.50" (regular), "0.75" (featured), "0.20" (no-bot). */
  potentialReward: z.string(),
  inviteLink: z.string(),
  /** The campaign id (servers.id), to claim no-bot rewards with. */
  serverId: z.string(),
});
export type JoinServerResponse = z.infer<typeof joinServerResponseSchema>;

/** POST /api/servers/:id/claim-nobot */
export const claimNoBotResponseSchema = z.object({ earned: z.string() });
export type ClaimNoBotResponse = z.infer<typeof claimNoBotResponseSchema>;

/** Seconds a member waits after a no-bot join before the reward can be claimed (spec §9). */
export const NOBOT_CLAIM_DELAY_MS = 10_000;

/** Shown for a campaign without a stored reward (spec §9). */
export const DEFAULT_JOIN_REWARD = '0.50';

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

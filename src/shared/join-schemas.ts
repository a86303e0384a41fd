import { z } from 'zod';

// Request/response contracts of the join endpoints (docs/spec/product-spec.md §7), shared by the API and the web app.

/** `:id` of /api/servers/:id/join and /api/servers/:id/claim-nobot (a campaign id). */
export const serverIdParamsSchema = z.object({
  id: z.string({ message: 'Server not found' }).trim().min(1, 'Server not found').max(64, 'Server not found'),
});

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

export {
  DEFAULT_JOIN_REWARD,
  JOIN_MESSAGES,
  NOBOT_CLAIM_DELAY_MS,
  accountTooNewMessage,
  notInGuildYetMessage,
  sameAddressCappedMessage,
} from './join-constants.ts';

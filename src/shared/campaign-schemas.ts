import { z } from 'zod';
import type * as s from './api-schemas.ts';
import { displayTextSchema, isMoneyString, plainTextSchema } from './text.ts';
import { MIN_CAMPAIGN_COINS, PROMOTION } from './campaign-kinds.ts';
import { targetingSchema } from './targeting.ts';

// Request schemas for spending coins (submit, no-bot submit, bot invite), shared by the API and the
// web forms so both refuse the same input with the same words. No server code is imported here.

export { MIN_CAMPAIGN_COINS };
/** Whole coins; a decimal(10,2) balance can never exceed this anyway. */
export const MAX_CAMPAIGN_COINS = 99_999_999;
/** The promotion price comes from the campaign-kind table. */
export const PROMOTE_COST_COINS = PROMOTION.costCoins;

export const CAMPAIGN_MESSAGES = {
  nameRequired: 'Server name is required',
  nameTooShort: 'Server name must be at least 2 characters',
  nameTooLong: 'Server name must be at most 100 characters',
  nameInvalid: 'Server name contains invisible or control characters',
  inviteRequired: 'Invite link is required',
  inviteInvalid: 'Please enter a valid Discord invite link (https://discord.gg/...)',
  minimumCoins: 'Minimum 3 coins required',
  maximumCoins: `Please enter at most ${MAX_CAMPAIGN_COINS} coins`,
  memberCount: 'Please enter a valid number of members (minimum 3)',
  missingInformation: 'Please fill in all fields',
  promoteCost: `You need ${PROMOTION.costCoins} coins to promote a server.`,
} as const;

/** A replacement invite must lead to the campaign's own server. */
export function inviteOtherServerMessage(campaignName: string, inviteServerName: string): string {
  return `This invite leads to ${inviteServerName}, not to ${campaignName}. Use an invite to the same server.`;
}

export function insufficientForSubmit(coins: number, balance: string): string {
  return `You need ${coins} coins to submit this server. You have ${balance} coins.`;
}

export function insufficientForNoBot(members: number, balance: string): string {
  return `You need ${members} coins for ${members} members. You have ${balance} coins.`;
}

const INVITE_HOSTS: Record<string, 'short' | 'long'> = {
  'discord.gg': 'short',
  'www.discord.gg': 'short',
  'discord.com': 'long',
  'www.discord.com': 'long',
  'discordapp.com': 'long',
  'www.discordapp.com': 'long',
};
const INVITE_CODE = /^[A-Za-z0-9-]{2,64}$/;

/**
 * The invite code of a Discord invite URL (https://discord.gg/CODE, https://discord.com/invite/CODE,
 * https://discordapp.com/invite/CODE), or null for anything else.
 */
export function parseInviteCode(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const kind = INVITE_HOSTS[url.hostname.toLowerCase()];
  if (!kind) return null;
  const parts = url.pathname.split('/').filter((p) => p !== '');
  const code =
    kind === 'short'
      ? parts.length === 1
        ? parts[0]
        : undefined
      : parts.length === 2 && parts[0] === 'invite'
        ? parts[1]
        : undefined;
  return code && INVITE_CODE.test(code) ? code : null;
}

export const campaignNameSchema = displayTextSchema(
  {
    required: CAMPAIGN_MESSAGES.nameRequired,
    tooShort: CAMPAIGN_MESSAGES.nameTooShort,
    tooLong: CAMPAIGN_MESSAGES.nameTooLong,
    invalid: CAMPAIGN_MESSAGES.nameInvalid,
  },
  { max: 100 },
);

export const inviteLinkSchema = plainTextSchema(
  {
    required: CAMPAIGN_MESSAGES.inviteRequired,
    tooLong: CAMPAIGN_MESSAGES.inviteInvalid,
    invalid: CAMPAIGN_MESSAGES.inviteInvalid,
  },
  { max: 200 },
).refine((v) => parseInviteCode(v) !== null, CAMPAIGN_MESSAGES.inviteInvalid);

/** POST /api/campaigns/:id/invite: a new invite for a campaign whose invite stopped working. */
export const replaceInviteSchema = z.object({ inviteLink: inviteLinkSchema });

/** "12" / "12.5" / 12 → the number; a string that is not plain money ("0b11", "1e3", "-4") → NaN. */
function toNumber(value: string | number | undefined): number {
  if (typeof value === 'number') return value;
  const text = value?.trim() ?? '';
  if (!isMoneyString(text)) return Number.NaN;
  return Number(text);
}

/** Whole coins to spend on a regular campaign: at least 3, rounded down (1 coin = 1 member). */
export function parseCampaignCoins(
  value: string | number | undefined,
): { ok: true; coins: number } | { ok: false; message: string } {
  const n = toNumber(value);
  if (!Number.isFinite(n) || n < MIN_CAMPAIGN_COINS)
    return { ok: false, message: CAMPAIGN_MESSAGES.minimumCoins };
  const coins = Math.floor(n);
  if (coins > MAX_CAMPAIGN_COINS) return { ok: false, message: CAMPAIGN_MESSAGES.maximumCoins };
  return { ok: true, coins };
}

/** Number of members for a no-bot campaign: an integer of at least 3. */
export function parseMemberCount(value: string | number | undefined): number | null {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (!/^\d{1,9}$/.test(text)) return null;
  const n = Number(text);
  return n >= MIN_CAMPAIGN_COINS && n <= MAX_CAMPAIGN_COINS ? n : null;
}

/** POST /api/servers: a regular campaign, or (isFeaturedIntent) a server row that promote then funds. */
export const submitServerSchema = z
  .object({
    name: campaignNameSchema,
    inviteLink: inviteLinkSchema,
    coinReward: z.union([z.string().max(32), z.number()]).optional(),
    isFeaturedIntent: z.literal(true).optional(),
    /** Who may see and join it (issue 31 item 2); absent: anyone the platform allows. */
    targeting: targetingSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (input.isFeaturedIntent) return;
    const parsed = parseCampaignCoins(input.coinReward);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['coinReward'], message: parsed.message });
  });
export type SubmitServerInput = z.infer<typeof submitServerSchema>;

/** POST /api/servers/no-bot */
export const submitNoBotSchema = z.object({
  name: campaignNameSchema,
  inviteLink: inviteLinkSchema,
  memberCount: z
    .union([z.string().max(32), z.number()], { error: CAMPAIGN_MESSAGES.memberCount })
    .refine((v) => parseMemberCount(v) !== null, CAMPAIGN_MESSAGES.memberCount),
  targeting: targetingSchema.optional(),
});
export type SubmitNoBotInput = z.infer<typeof submitNoBotSchema>;

/**
 * POST /api/campaigns/:id/top-up (issue 31 item 4): more member slots for a campaign the owner already
 * runs, at the same price per slot and with the same minimum as a submission (1 coin = 1 member, at least 3).
 */
export const topUpSchema = z.object({
  members: z
    .union([z.string().max(32), z.number()], { error: CAMPAIGN_MESSAGES.memberCount })
    .refine((v) => parseMemberCount(v) !== null, CAMPAIGN_MESSAGES.memberCount),
});
export type TopUpInput = z.infer<typeof topUpSchema>;

export const TOP_UP_MESSAGES = {
  canceled: 'This campaign was canceled and cannot be topped up.',
  unfunded: 'This campaign has not been promoted yet. Promote it or submit it as a regular campaign.',
  inviteInvalid: 'This campaign’s invite link stopped working. Replace the invite first, then add members.',
} as const;

export function insufficientForTopUp(members: number, balance: string): string {
  return `You need ${members} coins to add ${members} members. You have ${balance} coins.`;
}

/** GET /api/bot/invite?guildId= (optional) */
export const botInviteQuerySchema = z.object({
  guildId: z
    .string()
    .regex(/^\d{15,21}$/, 'guildId must be a Discord server id')
    .optional(),
});

export type BotInviteResponse = z.infer<typeof s.botInviteResponseSchema>;
/** Body of a 400 when our bot is not in the guild yet: the web app then offers Invite Bot. */
export type BotMissingBody = z.infer<typeof s.botMissingBodySchema>;
/** GET /api/servers/mine: every server the user submitted, for the Dashboard. */
export type ApiMyServer = z.infer<typeof s.apiMyServerSchema>;
/** GET /api/transactions/summary */
export type ApiTransactionSummary = z.infer<typeof s.transactionSummarySchema>;
/** POST /api/guilds/:id/invite: the never-expiring invite our bot made for the picked server. */
export type GuildInviteResponse = z.infer<typeof s.guildInviteResponseSchema>;

export const guildIdParamsSchema = z.object({
  id: z.string().regex(/^\d{15,21}$/, 'That is not a Discord server id.'),
});

/** GET /api/guilds/manageable: a Discord server the user owns or has Manage Server in (Submit's picker). */
export type ApiManageableGuild = z.infer<typeof s.manageableGuildSchema>;

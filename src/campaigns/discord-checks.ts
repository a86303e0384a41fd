import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import { parseInviteCode, CAMPAIGN_MESSAGES, type BotMissingBody } from '../shared/campaign-schemas.ts';
import { errorMessage } from '../ops/error-text.ts';

// Discord lookups a campaign needs before it is written: the invite must resolve to a permanent
// invite, and regular/featured campaigns need our bot in the guild (it verifies joins and leaves).

export const DISCORD_UNREACHABLE = 'Could not reach Discord. Please try again.';
export const INVITE_DEAD = 'This invite link is invalid or has expired. Please use a permanent invite link.';
export const INVITE_EXPIRES =
  'This invite link expires. Please create a permanent (never-expiring) invite link.';
export const BOT_MISSING = 'Please invite our bot to your server first, then submit again.';

/**
 * View Audit Log (1 << 7): it tells kicks and bans from voluntary leaves; Create Instant Invite (1 << 0):
 * Submit's picker can make the campaign's never-expiring invite for the owner. Member events and member
 * lists need the Server Members intent, not a permission; the completion DM needs none either. See README.
 */
export const BOT_PERMISSIONS = (1n << 7n) | (1n << 0n);

/** A 400 whose body also carries `botMissing` and the bot invite URL (see routes.ts). */
export class BotMissingError extends AppError {
  constructor(readonly inviteUrl: string) {
    super('bad_request', BOT_MISSING);
  }
  toBody(): BotMissingBody {
    return { message: this.message, botMissing: true, inviteUrl: this.inviteUrl };
  }
}

export function botInviteUrl(ctx: AppContext, guildId?: string): string {
  const params = new URLSearchParams({
    client_id: ctx.config.discord.clientId,
    scope: 'bot',
    permissions: BOT_PERMISSIONS.toString(),
  });
  if (guildId) {
    params.set('guild_id', guildId);
    params.set('disable_guild_select', 'true');
  }
  return `${ctx.config.discord.baseUrl}/oauth2/authorize?${params.toString()}`;
}

/** Runs a Discord call; anything but our own AppError becomes a 502. */
export async function callDiscord<T>(ctx: AppContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.logger.warn('discord call failed', { what, error: errorMessage(err) });
    throw new AppError('upstream', DISCORD_UNREACHABLE);
  }
}

export interface ResolvedInvite {
  code: string;
  /** Normalised link stored on the campaign. */
  link: string;
  guildId: string;
  guildName: string;
  guildIcon: string | null;
}

/** Resolves a submitted invite link; refuses non-Discord links, unknown invites and expiring ones. */
export async function resolvePermanentInvite(ctx: AppContext, link: string): Promise<ResolvedInvite> {
  const code = parseInviteCode(link);
  if (!code) throw new AppError('bad_request', CAMPAIGN_MESSAGES.inviteInvalid);
  const invite = await callDiscord(ctx, 'getInvite', () => ctx.discord.getInvite(code));
  if (!invite?.guild) throw new AppError('bad_request', INVITE_DEAD);
  if (invite.expires_at !== null) throw new AppError('bad_request', INVITE_EXPIRES);
  return {
    code,
    link: `https://discord.gg/${code}`,
    guildId: invite.guild.id,
    guildName: invite.guild.name,
    guildIcon: invite.guild.icon,
  };
}

/** Throws BotMissingError unless our bot is in the guild. */
export async function requireBotInGuild(ctx: AppContext, guildId: string): Promise<void> {
  const present = await callDiscord(ctx, 'isBotInGuild', () => ctx.discord.isBotInGuild(guildId));
  if (!present) throw new BotMissingError(botInviteUrl(ctx, guildId));
}

import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import { canManageGuild, DiscordApiError, type DiscordPartialGuild } from '../discord/discord-api.ts';
import { deleteOAuthTokens, getAccessToken, SIGN_IN_AGAIN } from './oauth-tokens.ts';
import { errorMessage } from '../ops/error-text.ts';

// A member's own guild list (GET /users/@me/guilds with their OAuth token): the source of truth for
// "owns or manages this server" and for "has joined this no-bot server", as our bot may not be there.

export const DISCORD_UNREACHABLE = 'Could not reach Discord. Please try again.';

export async function listUserGuilds(ctx: AppContext, userId: string): Promise<DiscordPartialGuild[]> {
  const token = await getAccessToken(ctx, userId);
  try {
    return await ctx.discord.getCurrentUserGuilds(token);
  } catch (err) {
    if (err instanceof DiscordApiError && err.status === 401) {
      // The member revoked our access on Discord's side.
      await deleteOAuthTokens(ctx.store, userId);
      throw new AppError('forbidden', SIGN_IN_AGAIN);
    }
    // DiscordBusyError: Discord asked for a wait longer than the person's deadline (503, Retry-After).
    if (err instanceof AppError) throw err;
    ctx.logger.warn('discord: guild list failed', {
      userId,
      error: errorMessage(err),
    });
    throw new AppError('upstream', DISCORD_UNREACHABLE);
  }
}

export function notManagerMessage(guildName: string, action: 'list' | 'feature' | 'update'): string {
  return (
    `Only the owner of ${guildName} or members with the Manage Server permission can ${action} it. ` +
    'Sign in with the Discord account that owns or manages that server.'
  );
}

/** 403 unless the user owns the guild or has Manage Server (or Administrator) there; the guild as listed. */
export async function requireGuildManager(
  ctx: AppContext,
  userId: string,
  guild: { id: string; name: string },
  action: 'list' | 'feature' | 'update',
): Promise<DiscordPartialGuild> {
  const guilds = await listUserGuilds(ctx, userId);
  const entry = guilds.find((g) => g.id === guild.id);
  if (!entry || !canManageGuild(entry))
    throw new AppError('forbidden', notManagerMessage(guild.name, action));
  return entry;
}

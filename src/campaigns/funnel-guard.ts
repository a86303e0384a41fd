import type { AppContext } from '../context.ts';
import type { DiscordPartialGuild } from '../discord/discord-api.ts';
import { snowflakeCreatedAt } from '../discord/discord-api.ts';
import { AppError } from '../shared/errors.ts';
import { usersRepo } from '../users/users-repo.ts';

// Decision 043 — no funnel. Throwaway Discord accounts get the welcome bonus and the timed rewards like
// anyone (the spec's amounts), but a manager who does not own a guild may spend on its campaigns only
// under the trust rule joins already use: a Discord account at least MIN_DISCORD_ACCOUNT_AGE_DAYS old.
// Without it, six 0-day accounts given Manage Server in a farmer's guild bought it 84 member slots while
// the owner spent nothing (issue 29 item 2). The guild's owner spends on its own guild at any age.

export function managerTooNewMessage(guildName: string, minDays: number, eligibleOn: string): string {
  return (
    `Your Discord account must be at least ${minDays} days old to fund campaigns for ${guildName}, ` +
    `a server you manage but do not own. You can fund them from ${eligibleOn}, or its owner can now.`
  );
}

/**
 * 403 when the spender manages but does not own the guild and its Discord account is younger than the
 * minimum account age. `entry` is the guild as the spender's own guild list shows it (requireGuildManager).
 */
export async function requireSpendTrust(
  ctx: AppContext,
  userId: string,
  entry: Pick<DiscordPartialGuild, 'owner'>,
  guildName: string,
): Promise<void> {
  const minAge = ctx.config.minAccountAgeMs;
  if (entry.owner || minAge <= 0) return;
  const user = await usersRepo(ctx.store.read).findById(userId);
  if (!user) throw new AppError('unauthorized', 'Not signed in');
  const createdAt = snowflakeCreatedAt(user.discordId);
  const now = ctx.clock.now();
  if (Number.isFinite(createdAt) && now - createdAt >= minAge) return;
  const eligibleOn = new Date((Number.isFinite(createdAt) ? createdAt : now) + minAge)
    .toISOString()
    .slice(0, 10);
  ctx.logger.warn('campaign spend refused: young manager of a guild it does not own', { userId });
  throw new AppError(
    'forbidden',
    managerTooNewMessage(guildName, Math.round(minAge / 86_400_000), eligibleOn),
  );
}

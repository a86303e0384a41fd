import type { AppContext } from '../context.ts';
import { listUserGuilds, notManagerMessage } from '../auth/user-guilds.ts';
import { canManageGuild } from '../discord/discord-api.ts';
import { AppError } from '../shared/errors.ts';
import type { GuildInviteResponse } from '../shared/campaign-schemas.ts';
import { callDiscord, requireBotInGuild } from './discord-checks.ts';

// Submit's picker (issue 31 item 3): the bot makes the campaign's never-expiring invite for an owner
// who picked their server, so nobody has to find "Edit invite link → Expire After: Never" in Discord.
// Only for a server the user owns or manages (their own guild list says so, as at submit), and only
// where our bot is (it is the bot's invite, made with its Create Instant Invite permission). When the
// bot may not (the owner's channel permissions say no), the answer says how to make one by hand.

export const inviteNotAllowedMessage = (guildName: string) =>
  `Our bot may not create invites in ${guildName}. In Discord, open Invite People → Edit invite link, ` +
  'set Expire After: Never and paste the link below.';

export async function createGuildInvite(
  ctx: AppContext,
  userId: string,
  guildId: string,
): Promise<GuildInviteResponse> {
  const guild = (await listUserGuilds(ctx, userId)).find((g) => g.id === guildId);
  if (!guild || !canManageGuild(guild))
    throw new AppError('forbidden', notManagerMessage(guild?.name ?? 'this server', 'list'));
  await requireBotInGuild(ctx, guildId);
  const code = await callDiscord(ctx, 'createPermanentInvite', () =>
    ctx.discord.createPermanentInvite(guildId, `CoinSync campaign invite, asked for by ${userId}`),
  );
  if (code === null) throw new AppError('conflict', inviteNotAllowedMessage(guild.name));
  return { inviteLink: `https://discord.gg/${code}`, guildName: guild.name };
}

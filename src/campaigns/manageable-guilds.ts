import type { AppContext } from '../context.ts';
import { listUserGuilds } from '../auth/user-guilds.ts';
import { canManageGuild, guildIconUrl } from '../discord/discord-api.ts';
import type { ApiManageableGuild } from '../shared/campaign-schemas.ts';
import { botInviteUrl } from './discord-checks.ts';
import { errorMessage } from '../ops/error-text.ts';

// Issue 31 item 3: Submit starts from the owner's own servers. The list is the user's Discord guild
// list (their OAuth token, the same read that decides "owns or manages" at submit), kept to the
// servers they own or have Manage Server in, each with whether our bot is there (one bot-token
// GET /guilds/{id} each, a few at a time, for at most MAX_PICKER_GUILDS servers).

export const MAX_PICKER_GUILDS = 50;
const BOT_CHECKS_AT_ONCE = 4;

export async function listManageableGuilds(ctx: AppContext, userId: string): Promise<ApiManageableGuild[]> {
  const guilds = (await listUserGuilds(ctx, userId))
    .filter(canManageGuild)
    .sort((a, b) => Number(b.owner) - Number(a.owner) || a.name.localeCompare(b.name))
    .slice(0, MAX_PICKER_GUILDS);
  const present = new Map<string, boolean | null>();
  for (let i = 0; i < guilds.length; i += BOT_CHECKS_AT_ONCE) {
    await Promise.all(
      guilds.slice(i, i + BOT_CHECKS_AT_ONCE).map(async (g) => {
        try {
          present.set(g.id, await ctx.discord.isBotInGuild(g.id));
        } catch (err) {
          // One server Discord would not answer for must not hide the others.
          ctx.logger.warn('picker: bot presence unknown', {
            guildId: g.id,
            error: errorMessage(err),
          });
          present.set(g.id, null);
        }
      }),
    );
  }
  const cdn = ctx.config.discord.cdnUrl;
  return guilds.map((g) => ({
    id: g.id,
    name: g.name,
    iconUrl: guildIconUrl(cdn, g.id, g.icon ?? null),
    botPresent: present.get(g.id) ?? null,
    botInviteUrl: botInviteUrl(ctx, g.id),
  }));
}

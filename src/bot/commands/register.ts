import type { Client } from 'discord.js';
import type { AppContext } from '../../context.ts';
import { commandDefinitions } from './index.ts';

/**
 * Registers the slash commands (bulk overwrite: idempotent, so every start does it). Global commands
 * reach every server; in demo mode each guild also gets its own copy, which Discord applies at once
 * (global changes can take a while to show in clients).
 */
export async function registerCommands(ctx: AppContext, client: Client<true>): Promise<void> {
  const definitions = commandDefinitions();
  await client.application.commands.set(definitions);
  if (ctx.config.demoMode) {
    for (const guild of client.guilds.cache.values()) await registerGuildCommands(ctx, client, guild.id);
  }
  ctx.logger.info('bot: slash commands registered', {
    commands: definitions.length,
    perGuild: ctx.config.demoMode,
  });
}

export async function registerGuildCommands(
  ctx: AppContext,
  client: Client<true>,
  guildId: string,
): Promise<void> {
  if (!ctx.config.demoMode) return;
  await client.application.commands.set(commandDefinitions({ global: false }), guildId);
}

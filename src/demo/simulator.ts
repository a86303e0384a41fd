import type http from 'node:http';
import type { Router } from 'express';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { createDiscordSimulator, GUILD_MEMBERS_INTENT, type DiscordSimulator } from '../sim/discord/index.ts';

export type { DiscordSimulator } from '../sim/discord/index.ts';

/**
 * Demo mode's Discord: the wire-protocol simulator, mounted on our own HTTP server (REST, OAuth2,
 * gateway). server.ts loads this module on demand, so production code paths never import src/sim.
 */
export function startDemoSimulator(
  config: Config,
  server: http.Server,
  logger: Logger,
): { simulator: DiscordSimulator; route: { path: string; router: Router } } | undefined {
  if (!config.discord.simulatorPath) return undefined;
  const simulator = createDiscordSimulator({
    publicUrl: config.discord.baseUrl,
    clientId: config.discord.clientId,
    clientSecret: config.discord.clientSecret,
    botToken: config.discord.botToken,
    statePath:
      config.databasePath === ':memory:'
        ? undefined
        : config.databasePath.replace(/\.db$/, '') + '.discord-sim.json',
    log: (msg: string) => logger.debug(`[discord-sim] ${msg}`),
  });
  // A new application has no privileged intent; the demo's owner enabled Server Members in the portal
  // (leaves seen in real time). DISCORD_MEMBERS_INTENT=off: Discord refused it after review.
  simulator.state.gateway.allowedPrivilegedIntents =
    config.membersIntent === 'off' ? 0 : GUILD_MEMBERS_INTENT;
  simulator.attachGateway(server);
  return { simulator, route: { path: config.discord.simulatorPath, router: simulator.router } };
}

import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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
    // Only the product's own callback (issue 27 item 6), as Discord's developer portal would have it.
    redirectUris: [`${config.publicUrl}/api/auth/discord/callback`],
    // Scripts driving the demo's simulator send this; its own pages (same origin) need nothing.
    controlToken: demoControlToken(config),
  });
  // A new application has no privileged intent; the demo's owner enabled Server Members in the portal
  // (leaves seen in real time). DISCORD_MEMBERS_INTENT=off: Discord refused it after review.
  simulator.state.gateway.allowedPrivilegedIntents =
    config.membersIntent === 'off' ? 0 : GUILD_MEMBERS_INTENT;
  simulator.attachGateway(server);
  return { simulator, route: { path: config.discord.simulatorPath, router: simulator.router } };
}

/**
 * The demo simulator's local control token (issue 27 item 6): kept beside the database
 * (`<database>.sim-control-token`, readable by its owner only) so a script on the same machine can
 * drive the control API with `Authorization: Bearer <token>`; a fresh one per start for an in-memory
 * database. Web pages elsewhere can read neither.
 */
export function demoControlToken(config: Pick<Config, 'databasePath'>): string {
  if (config.databasePath === ':memory:') return randomBytes(24).toString('hex');
  const file = config.databasePath.replace(/\.db$/, '') + '.sim-control-token';
  if (existsSync(file)) {
    const saved = readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{48}$/.test(saved)) return saved;
  }
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

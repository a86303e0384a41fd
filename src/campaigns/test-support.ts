import { eq } from 'drizzle-orm';
import type { TestApp, TestClient } from '../test/harness.ts';
import { serverJoins, servers, transactions, type Server } from '../db/schema.ts';
import { giveCoins as giveCoinsToUser } from '../test/factories.ts';

// Test-only helpers for campaign tests: coins go through the ledger, Discord guilds through the simulator.

let guildCounter = 0;

/** Signs a user in and gives them `coins` whole coins on top of the 5-coin welcome bonus. */
export async function signInWithCoins(app: TestApp, username: string, coins = 0): Promise<TestClient> {
  const client = await app.signIn(username);
  if (coins > 0) giveCoins(app, client, coins);
  return client;
}

/** Whole coins for a signed-in client, through the shared factory (and so the ledger). */
export function giveCoins(app: TestApp, client: TestClient, coins: number): void {
  giveCoinsToUser(app.server.ctx.db, client.user!.id, coins * 100, app.clock.now());
}

/** A guild owned by the client's Discord user with a permanent invite; the bot is in it unless told otherwise. */
export function createGuildWithInvite(
  app: TestApp,
  client: TestClient,
  opts: { name?: string; botMember?: boolean; icon?: string | null } = {},
) {
  guildCounter += 1;
  const guild = app.sim.state.createGuild({
    name: opts.name ?? `Guild ${guildCounter}`,
    ownerId: client.user!.discordId,
    botMember: opts.botMember ?? true,
    icon: opts.icon ?? null,
  });
  const code = `camp${guildCounter}x${Math.random().toString(36).slice(2, 8)}`;
  app.sim.state.createInvite(guild.id, { code, maxAge: 0 });
  return { guild, code, link: `https://discord.gg/${code}` };
}

export function serversOf(app: TestApp, client: TestClient): Server[] {
  return app.server.ctx.db.select().from(servers).where(eq(servers.ownerId, client.user!.id)).all();
}

export function transactionsOf(app: TestApp, client: TestClient) {
  return app.server.ctx.db.select().from(transactions).where(eq(transactions.userId, client.user!.id)).all();
}

/** A join row as the join/verification flow would leave it. */
export function addJoin(
  app: TestApp,
  campaignId: string,
  member: TestClient,
  flags: { verified?: boolean; coinsAwarded?: boolean } = {},
) {
  app.server.ctx.db
    .insert(serverJoins)
    .values({
      userId: member.user!.id,
      serverId: campaignId,
      joinedAt: app.clock.now(),
      verified: flags.verified ?? false,
      coinsAwarded: flags.coinsAwarded ?? false,
    })
    .run();
}

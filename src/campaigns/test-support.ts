import { eq, sql } from 'drizzle-orm';
import type { TestApp, TestClient } from '../test/harness.ts';
import { campaignJoins, campaigns, transactions, type Campaign, type Transaction } from '../db/schema.ts';
import * as pg from '../db/schema.pg.ts';

/**
 * Rows of one millisecond in the order they were written, on PostgreSQL (SQLite reads them in rowid
 * order): the writing transaction's id, then the row's place in it. Tests only (xmin wraps around).
 */
const INSERTION_ORDER = sql`xmin::text::bigint, ctid`;
import { grantCoins } from '../test/factories.ts';

// Test-only helpers for campaign tests: coins go through the ledger, Discord guilds through the simulator.

let guildCounter = 0;

/** Signs a user in and gives them `coins` whole coins on top of the 5-coin welcome bonus. */
export async function signInWithCoins(app: TestApp, username: string, coins = 0): Promise<TestClient> {
  const client = await app.signIn(username);
  if (coins > 0) await giveCoins(app, client, coins);
  return client;
}

/** Whole coins for a signed-in client, through the shared factory (and so the ledger), on either engine. */
export function giveCoins(app: TestApp, client: TestClient, coins: number): Promise<void> {
  return grantCoins(app.server.ctx.store, client.user!.id, coins * 100, app.clock.now());
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

// Rows read straight from the database (either engine), in insertion order.

export async function campaignsOf(app: TestApp, client: TestClient): Promise<Campaign[]> {
  const h = app.server.ctx.store.read;
  const ownerId = client.user!.id;
  return h.kind === 'sqlite'
    ? h.db.select().from(campaigns).where(eq(campaigns.ownerId, ownerId)).orderBy(campaigns.createdAt).all()
    : h.db
        .select()
        .from(pg.campaigns)
        .where(eq(pg.campaigns.ownerId, ownerId))
        .orderBy(pg.campaigns.createdAt);
}

export async function transactionsOf(app: TestApp, client: TestClient): Promise<Transaction[]> {
  const h = app.server.ctx.store.read;
  const userId = client.user!.id;
  return h.kind === 'sqlite'
    ? h.db.select().from(transactions).where(eq(transactions.userId, userId)).all()
    : h.db
        .select()
        .from(pg.transactions)
        .where(eq(pg.transactions.userId, userId))
        .orderBy(pg.transactions.createdAt, INSERTION_ORDER);
}

/** A join row as the join/verification flow would leave it. */
export function addJoin(
  app: TestApp,
  campaignId: string,
  member: TestClient,
  flags: { verified?: boolean; coinsAwarded?: boolean } = {},
): Promise<void> {
  const values = {
    userId: member.user!.id,
    campaignId,
    joinedAt: app.clock.now(),
    verified: flags.verified ?? false,
    coinsAwarded: flags.coinsAwarded ?? false,
  };
  return app.server.ctx.store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.insert(campaignJoins).values(values).run();
    else await tx.db.insert(pg.campaignJoins).values(values);
  });
}

import { and, eq } from 'drizzle-orm';
import { serverJoins, transactions, type Server, type ServerJoin } from '../db/schema.ts';
import { debit, getBalance } from '../ledger/ledger.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { createCampaign, type CampaignKind } from '../test/factories.ts';
import type { SimGuild } from '../sim/discord/index.ts';
import type { StartOptions } from '../server.ts';

// Shared set-up for the bot tests: the real product with its bot connected to the simulator's gateway.

/** The product with background jobs on; resolves once discord.js is connected. */
export async function startBotTestApp(
  options: { env?: Record<string, string>; bot?: StartOptions['bot'] } = {},
): Promise<TestApp> {
  const app = await startTestApp({ background: true, ...options });
  const bot = app.server.background.bot;
  if (!bot) throw new Error('bot not started');
  await bot.ready;
  return app;
}

/** Polls until `check` passes (every 20 ms); fails with the last reason after `ms`. */
export async function waitFor(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let counter = 0;

/** A guild owned by `owner` (bot inside) with a campaign for it. */
export function createBotCampaign(
  app: TestApp,
  owner: TestClient,
  options: { kind?: CampaignKind; slots?: number; name?: string; guild?: SimGuild } = {},
): { guild: SimGuild; campaign: Server } {
  counter += 1;
  const name = options.name ?? options.guild?.name ?? `Bot Guild ${counter}`;
  const guild = options.guild ?? app.sim.state.createGuild({ name, ownerId: owner.user!.discordId });
  const invite = app.sim.state.createInvite(guild.id, { maxAge: 0 });
  const campaign = createCampaign(app.server.ctx.db, {
    ownerId: owner.user!.id,
    kind: options.kind ?? 'regular',
    name,
    guildId: guild.id,
    inviteCode: invite.code,
    inviteLink: `https://discord.gg/${invite.code}`,
    membersRemaining: options.slots,
  });
  return { guild, campaign };
}

export function findJoin(app: TestApp, campaignId: string, userId: string): ServerJoin | undefined {
  return app.server.ctx.db
    .select()
    .from(serverJoins)
    .where(and(eq(serverJoins.serverId, campaignId), eq(serverJoins.userId, userId)))
    .get();
}

export function balanceOf(app: TestApp, client: TestClient): number {
  return getBalance(app.server.ctx.sqlite, client.user!.id);
}

/** Spends a user's whole balance (so a penalty can take it below zero). */
export function drain(app: TestApp, client: TestClient): void {
  const balance = balanceOf(app, client);
  if (balance > 0) {
    debit(app.server.ctx.sqlite, {
      userId: client.user!.id,
      cents: balance,
      type: 'campaign',
      description: 'Test spend',
      now: app.clock.now(),
    });
  }
}

export function transactionsOf(app: TestApp, client: TestClient, type: string) {
  return app.server.ctx.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.userId, client.user!.id), eq(transactions.type, type)))
    .all();
}

/**
 * A member of a bot campaign: joins on the website, then the guild; resolves once the bot has verified
 * the join (the reward is paid when a slot was left).
 */
export async function verifyMember(
  app: TestApp,
  member: TestClient,
  guildId: string,
  campaignId: string,
): Promise<TestClient> {
  await joinViaWebsite(member, campaignId);
  app.sim.state.addMember(guildId, member.user!.discordId);
  await waitFor(() => findJoin(app, campaignId, member.user!.id)?.verified === true, 5000, 'verification');
  return member;
}

/** Website join through the API; expects success. */
export async function joinViaWebsite(member: TestClient, campaignId: string): Promise<void> {
  const res = await member.post(`/api/servers/${campaignId}/join`);
  if (res.status !== 200) throw new Error(`join failed: ${res.status} ${JSON.stringify(res.body)}`);
}

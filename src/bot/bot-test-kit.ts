import { sql } from 'drizzle-orm';
import type { Campaign, CampaignJoin, Transaction } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, joinRow, ledgerRows, type CampaignKind } from '../test/factories.ts';
import type { SimGuild } from '../sim/discord/index.ts';
import type { StartOptions } from '../server.ts';

// Shared set-up for the bot tests: the real product with its bot connected to the simulator's gateway.
// Rows are read and written through the async store (ctx.store), so each suite runs on either engine
// (TEST_DB=pg).

/**
 * The product with background jobs on; resolves once discord.js is connected. Its `checkLedger()`
 * (called after every test of the bot suites) and `close()` also assert decision 024's slot invariant:
 * no campaign holds more paid members than it bought slots (assertSlotInvariant).
 */
export async function startBotTestApp(
  options: { env?: Record<string, string>; bot?: StartOptions['bot']; discordMembersIntent?: boolean } = {},
): Promise<TestApp> {
  const app = await startTestApp({ background: true, ...options });
  const bot = app.server.background.bot;
  if (!bot) throw new Error('bot not started');
  await bot.ready;
  const checkLedger = app.checkLedger.bind(app);
  const close = app.close.bind(app);
  app.checkLedger = async () => {
    await checkLedger();
    await assertSlotInvariant(app);
  };
  app.close = async () => {
    try {
      await app.server.background.bot?.idle();
      await assertSlotInvariant(app);
    } finally {
      await close();
    }
  };
  return app;
}

/**
 * Paid members held ≤ slots bought, per campaign: joins paid a reward (a slot), minus those whose
 * penalised leave gave the slot back, never exceed the campaign's initial slots. Throws naming them.
 */
export async function assertSlotInvariant(app: TestApp): Promise<void> {
  const rows = await app.query<{ id: string; name: string; bought: number; held: number }>(sql`
    SELECT s.id AS id, s.name AS name, s.initial_member_slots AS bought, COUNT(j.id) AS held
    FROM servers s JOIN server_joins j ON j.server_id = s.id
    WHERE j.coins_awarded AND NOT j.penalized AND COALESCE(j.reward_cents, 1) > 0
    GROUP BY s.id, s.name, s.initial_member_slots`);
  const over = rows.filter((r) => Number(r.held) > Number(r.bought));
  if (over.length > 0)
    throw new Error(
      `slot invariant broken: ${over.map((r) => `${r.name} holds ${r.held} paid members for ${r.bought} slots`).join('; ')}`,
    );
}

/** Polls until `check` passes (every 20 ms); fails with the last reason after `ms`. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms = 5000,
  what = 'condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let counter = 0;

/** A guild owned by `owner` (bot inside) with a campaign for it. */
export async function createBotCampaign(
  app: TestApp,
  owner: TestClient,
  options: { kind?: CampaignKind; slots?: number; name?: string; guild?: SimGuild } = {},
): Promise<{ guild: SimGuild; campaign: Campaign }> {
  counter += 1;
  const name = options.name ?? options.guild?.name ?? `Bot Guild ${counter}`;
  const guild = options.guild ?? app.sim.state.createGuild({ name, ownerId: owner.user!.discordId });
  const invite = app.sim.state.createInvite(guild.id, { maxAge: 0 });
  const campaign = await insertCampaign(app.server.ctx.store, {
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

export function findJoin(
  app: TestApp,
  campaignId: string,
  userId: string,
): Promise<CampaignJoin | undefined> {
  return joinRow(app.server.ctx.store, campaignId, userId);
}

export function balanceOf(app: TestApp, client: TestClient): Promise<number> {
  return ledger.getBalance(app.server.ctx.store, client.user!.id);
}

/** Spends a user's whole balance (so a penalty can take it below zero). */
export async function drain(app: TestApp, client: TestClient): Promise<void> {
  const balance = await balanceOf(app, client);
  if (balance > 0) {
    await ledger.debit(app.server.ctx.store, {
      userId: client.user!.id,
      cents: balance,
      type: 'campaign',
      description: 'Test spend',
      now: app.clock.now(),
    });
  }
}

export function transactionsOf(app: TestApp, client: TestClient, type: string): Promise<Transaction[]> {
  return ledgerRows(app.server.ctx.store, client.user!.id, type);
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
  await waitFor(
    async () => (await findJoin(app, campaignId, member.user!.id))?.verified === true,
    5000,
    'verification',
  );
  return member;
}

/** Website join through the API; expects success. */
export async function joinViaWebsite(member: TestClient, campaignId: string): Promise<void> {
  const res = await member.post(`/api/servers/${campaignId}/join`);
  if (res.status !== 200) throw new Error(`join failed: ${res.status} ${JSON.stringify(res.body)}`);
}

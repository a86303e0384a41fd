import os from 'node:os';
import { sql } from 'drizzle-orm';
import { DAY, MINUTE } from '../../src/clock.ts';
import { saveOAuthTokens } from '../../src/auth/oauth-tokens.ts';
import { reconcile } from '../../src/bot/reconcile.ts';
import { recheckInvites } from '../../src/campaigns/recheck-invites.ts';
import { sampleRetention } from '../../src/campaigns/retention-sampler.ts';
import { refreshInviteStats } from '../../src/joins/invite-stats.ts';
import { deliverDueNotifications } from '../../src/notifications/deliver.ts';
import { enqueueCampaignEvent } from '../../src/notifications/outbox.ts';
import { updateNotificationSettings } from '../../src/notifications/settings.ts';
import { reconcileStripe } from '../../src/payments/reconcile-stripe.ts';
import { sendDueReminders } from '../../src/reminders/send-reminders.ts';
import { updateReminderSettings } from '../../src/reminders/reminder-settings.ts';
import { claimReward } from '../../src/rewards/claim-reward.ts';
import { errorMessage } from '../../src/ops/error-text.ts';
import { COIN_PACKS } from '../../src/shared/packs.ts';
import { startFakeStripe } from '../../src/sim/stripe/index.ts';
import { insertCampaign, insertJoin, insertUser } from '../../src/test/factories.ts';
import { startTestApp, type TestApp } from '../../src/test/harness.ts';
import { addSimUser } from '../../src/test/open-joins.ts';
import { PG_TEST_URL } from '../../src/test/pg.ts';
import { backendPids } from './pg-copy.ts';
import { cpuSeconds } from './processes.ts';

// `node --import tsx scripts/bench/background-jobs.ts [--members 2000] [--campaigns 200]
//   [--joins-per-member 4] [--reminder-share 0.1] [--payments 300] [--engine sqlite|pg]`
//
// The background jobs' cost for the capacity model (issue 33 item 4): seeds `members` members, each
// with `joins-per-member` paid joins over `campaigns` guilds (half still inside their stay, which the
// member sweep looks after, with the member's OAuth token; half verified 7 days ago, which the retention sample checks), a share of
// them with the hourly reminder on and due, one owner notification per campaign waiting in the outbox,
// and `payments` coin purchases within Stripe's look-back; then runs each job's body once — the
// function src/background.ts calls — until it has nothing left to do, and once more with nothing due
// (the fixed cost of a run). CPU is this process's (the product's job, and the Discord simulator and
// Stripe fake answering it in the same process: an upper bound for the product's share) plus, on
// PostgreSQL, the database's backends. REST requests are counted at the simulator.

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const engine = args.includes('--engine') && args[args.indexOf('--engine') + 1] === 'pg' ? 'pg' : 'sqlite';
const MEMBERS = flag('members', 2000);
const CAMPAIGNS = flag('campaigns', 200);
const JOINS_PER_MEMBER = flag('joins-per-member', 4);
const REMINDER_SHARE = flag('reminder-share', 0.1);
const PAYMENTS = flag('payments', 300);

const TOKEN_SCOPE = 'identify email guilds';

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

interface Measured {
  cpuMs: number;
  dbMs: number;
  restRequests: number;
}

async function measured(app: TestApp, work: () => Promise<unknown>): Promise<Measured> {
  const pids = engine === 'pg' ? await backendPids(PG_TEST_URL, await pgDatabaseName(app)) : [];
  const db0 = pids.map((pid) => cpuSeconds(pid) ?? 0);
  const rest0 = app.sim.state.rateLimits.stats().requests;
  const cpu0 = process.cpuUsage();
  await work();
  const cpu = process.cpuUsage(cpu0);
  const db = pids.reduce((s, pid, i) => s + (cpuSeconds(pid) ?? db0[i]!) - db0[i]!, 0);
  return {
    cpuMs: (cpu.user + cpu.system) / 1000,
    dbMs: db * 1000,
    restRequests: app.sim.state.rateLimits.stats().requests - rest0,
  };
}

async function pgDatabaseName(app: TestApp): Promise<string> {
  const [row] = await app.query<{ name: string }>(sql`select current_database() as name`);
  return row!.name;
}

/** Runs `once` until it reports no work (`units` 0), then once more (idle); CPU per unit and per idle run. */
async function job(
  app: TestApp,
  name: string,
  per: string,
  once: () => Promise<number>,
  repeat = true,
): Promise<Record<string, unknown>> {
  let units = 0;
  let runs = 0;
  let busy: Measured;
  try {
    busy = await measured(app, async () => {
      for (;;) {
        const n = await once();
        runs += 1;
        units += n;
        if (n === 0 || !repeat) break;
      }
    });
  } catch (err) {
    // A job that fails at this size is a finding: reported, and the other jobs still measured.
    const row = { job: name, per, units, runs, failed: errorMessage(err).split(' — caused by: ').pop() };
    console.log(JSON.stringify(row));
    return row;
  }
  const idle = await measured(app, once);
  const perUnit = (m: number) => (units > 0 ? round(m / units) : null);
  const row = {
    job: name,
    per,
    units,
    runs,
    cpuMsPerUnit: perUnit(busy.cpuMs),
    dbMsPerUnit: perUnit(busy.dbMs),
    restPerUnit: perUnit(busy.restRequests),
    idleRunCpuMs: round(idle.cpuMs),
    idleRunDbMs: round(idle.dbMs),
    idleRunRest: idle.restRequests,
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main(): Promise<void> {
  const [l1, l5] = os.loadavg();
  console.log(
    `background-jobs bench on ${engine}: ${MEMBERS} members, ${CAMPAIGNS} campaigns, ${JOINS_PER_MEMBER} joins each; load ${l1?.toFixed(1)} / ${l5?.toFixed(1)} (1 / 5 min)`,
  );
  const stripe = await startFakeStripe({ webhookSecret: 'whsec_bench' });
  const app = await startTestApp({
    engine,
    discordMembersIntent: false,
    env: {
      DISCORD_MEMBERS_INTENT: 'off',
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_bench',
      STRIPE_API_URL: stripe.url,
    },
  });
  const ctx = app.server.ctx;
  const { store } = ctx;
  const sim = app.sim.state;
  const rows: Record<string, unknown>[] = [];
  try {
    const seedStart = performance.now();
    const now = app.clock.now();
    // Campaigns: a guild each (bot inside), a permanent invite, a Discord webhook for its owner's notices.
    const ownerSim = sim.createUser({ username: 'jobs_owner' });
    const owner = await insertUser(store, { discordId: ownerSim.id, discordUsername: ownerSim.username });
    const guilds: { guildId: string; campaignId: string }[] = [];
    for (let g = 0; g < CAMPAIGNS; g++) {
      const guild = sim.createGuild({ name: `jobs guild ${g}`, ownerId: ownerSim.id, botMember: true });
      const code = `jobs-invite-${g}`;
      sim.createInvite(guild.id, { code, maxAge: 0 });
      const campaign = await insertCampaign(store, {
        ownerId: owner.id,
        name: guild.name,
        guildId: guild.id,
        inviteCode: code,
        membersRemaining: MEMBERS,
        createdAt: now - 8 * DAY,
      });
      const hook = sim.channelWebhooks.create({});
      await updateNotificationSettings(ctx, owner.id, campaign.id, {
        discordWebhookUrl: `https://discord.com/api/webhooks/${hook.id}/${hook.token}`,
        events: ['join.verified'],
      });
      guilds.push({ guildId: guild.id, campaignId: campaign.id });
    }
    // Members: paid joins, half inside their stay (the sweep's), half verified 7 days ago (the sample's).
    const joinedAt = new Date(now - 8 * DAY).toISOString();
    const memberIds: string[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const u = addSimUser(app, `jobs_member_${i}`);
      const user = await insertUser(store, { discordId: u.id, discordUsername: u.username });
      memberIds.push(user.id);
      // Signed-in members' OAuth tokens: the sweep reads each member's guild list once (decision 036).
      const accessToken = `jobs-token-${i}`;
      sim.tokens.set(accessToken, {
        userId: u.id,
        scope: TOKEN_SCOPE,
        expiresAt: Date.now() + 7 * DAY,
        refreshToken: `${accessToken}-r`,
      });
      await saveOAuthTokens(
        store,
        ctx.config.tokenEncryptionKey,
        user.id,
        { accessToken, refreshToken: `${accessToken}-r`, expiresIn: 7 * 86_400, scope: TOKEN_SCOPE },
        now,
      );
      for (let k = 0; k < JOINS_PER_MEMBER; k++) {
        const g = guilds[(i + k * Math.floor(CAMPAIGNS / JOINS_PER_MEMBER)) % CAMPAIGNS]!;
        sim.guilds.get(g.guildId)!.members[u.id] = { joinedAt };
        const verifiedAt = k % 2 === 0 ? now - 60 * MINUTE : now - 7 * DAY - 60 * MINUTE;
        await insertJoin(store, {
          userId: user.id,
          campaignId: g.campaignId,
          joinedAt: verifiedAt - 1000,
          verified: true,
          verifiedAt,
          coinsAwarded: true,
          discordJoinedAt: verifiedAt - 500,
          rewardCents: 50,
          minStayMs: 2 * DAY,
          penaltyCents: 200,
        });
      }
    }
    // Reminders: a share of members with the hourly reminder on (no quiet hours) and a claim an hour ago.
    const inStay = MEMBERS * Math.ceil(JOINS_PER_MEMBER / 2);
    const reminded = memberIds.slice(0, Math.round(MEMBERS * REMINDER_SHARE));
    for (const userId of reminded) {
      await updateReminderSettings(store, userId, { kinds: { hourly: true }, quietHours: null }, now);
      await claimReward(store, userId, 'regular', now);
    }
    // Owner notifications: one verified join per campaign waiting in the outbox.
    for (const [g, { campaignId }] of guilds.entries())
      await store.transaction((tx) =>
        enqueueCampaignEvent(tx, {
          campaignId,
          type: 'join.verified',
          key: `bench-join-${g}`,
          at: now,
          memberUserId: memberIds[g % MEMBERS],
        }),
      );
    // Purchases within Stripe's look-back, paid; the first reconciliation restores and credits them.
    const pack = COIN_PACKS.medium;
    for (let p = 0; p < PAYMENTS; p++) {
      const intent = await ctx.stripe!.paymentIntents.create({
        amount: pack.priceCents,
        currency: 'usd',
        metadata: { userId: memberIds[p % MEMBERS]!, packId: pack.id, coins: String(pack.coins) },
      });
      stripe.succeed(intent.id);
    }
    console.log(`seeded in ${round((performance.now() - seedStart) / 1000, 1)} s`);
    app.clock.advance(61 * MINUTE);

    rows.push(
      await job(app, 'reminders', 'reminder DM sent', async () => (await sendDueReminders(ctx)).sent),
      await job(
        app,
        'notification delivery',
        'notification delivered',
        async () => (await deliverDueNotifications(ctx)).delivered,
      ),
      await job(
        app,
        'retention sample',
        'membership checked',
        async () => (await sampleRetention(ctx)).checked,
      ),
      // The member sweep without the members intent: every in-stay join looked at, each run.
      await job(
        app,
        'member sweep (no members intent)',
        'in-stay join covered',
        async () => {
          await reconcile(ctx, { withoutMembersIntent: true });
          return inStay;
        },
        false,
      ),
      await job(
        app,
        'invite stats',
        'campaign refreshed',
        async () => (await refreshInviteStats(ctx)).fetched,
        false,
      ),
      await job(
        app,
        'invite recheck',
        'campaign checked',
        async () => (await recheckInvites(ctx)).checked,
        false,
      ),
    );
    // Stripe: the first run settles the purchases; what every later run costs is listing them again.
    await reconcileStripe(ctx);
    rows.push(
      await job(
        app,
        'stripe reconcile (steady)',
        'payment in the look-back listed',
        async () => (await reconcileStripe(ctx)).intents,
        false,
      ),
    );
    await app.checkLedger();
    const [a1, a5] = os.loadavg();
    console.log(`load at the end ${a1?.toFixed(1)} / ${a5?.toFixed(1)}`);
    console.log(JSON.stringify({ engine, members: MEMBERS, campaigns: CAMPAIGNS, rows }, null, 2));
  } finally {
    await app.close();
    await stripe.close();
  }
}

await main();

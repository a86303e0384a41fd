import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgTestDatabase, type PgTestDatabase } from '../../src/test/pg.ts';
import { CAMPAIGN_KIND_RULES } from '../../src/shared/campaign-kinds.ts';
import { REWARDS, REWARD_TYPES, type RewardType } from '../../src/shared/rewards-constants.ts';
import { NOBOT_CLAIM_DELAY_MS } from '../../src/shared/join-constants.ts';
import type { ApiDiscoverServer, ApiServer } from '../../src/shared/api-types.ts';
import { startCluster, type Cluster } from './cluster.ts';
import { Member, pool } from './client.ts';

// Decision 028 step 5, issue 16 item 3: the scaled-out layout on one PostgreSQL and one Redis — two
// ROLE=web processes and one ROLE=bot process of the built product, the Discord simulator in its own
// process — with 200 users signing in, claiming, spending and joining through both web processes at
// once, the same user through both at the same moment. Afterwards, read from PostgreSQL: the ledger
// balances for every user, no overdraft, every exactly-once rule held (one claim per reward and
// cooldown, one campaign per owner's two racing submits, one join row and at most one reward per join,
// slots never oversold), each owner paid slots × cost, and the periodic jobs ran once per period.

const USERS = 200;
/** Owners of bot campaigns: each races two 8-coin submits (one per web process) with 14 coins: one 201, one 402. */
const BOT_OWNERS = 20;
/** Owners of no-bot campaigns: each races two 9-member submits likewise. */
const NOBOT_OWNERS = 4;
const BOT_SLOTS = 8;
const NOBOT_SLOTS = 9;
/** Members who join and then claim each no-bot campaign: more than its slots. */
const NOBOT_CLAIMERS = 12;
/** Requests in flight from the test at once (a browser-like spread, not a flood on two cores). */
const CONCURRENCY = 24;
/** Welcome bonus + hourly + bonus + daily, in hundredths. */
const WELCOME_CENTS = 500;
const START_CENTS = WELCOME_CENTS + REWARD_TYPES.reduce((sum, t) => sum + REWARDS[t].cents, 0);

let database: PgTestDatabase | undefined;
let cluster: Cluster | undefined;

beforeAll(async () => {
  database = await createPgTestDatabase({ max: 2 });
  // Redis: a database number of its own (sessions and rate-limit keys never meet another run's).
  const redisBase = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisUrl = `${redisBase.replace(/\/\d*$/, '')}/${1 + (process.pid % 15)}`;
  cluster = await startCluster({
    databaseUrl: database.url,
    redisUrl,
    webCount: 2,
    botCount: 1,
    // Simulated accounts are 30 days old; the default minimum (7 days) applies as in production.
    env: {},
  });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  await database?.dispose();
}, 60_000);

async function control<T = unknown>(path: string, method: string, body?: unknown): Promise<T> {
  const res = await fetch(`${cluster!.simUrl}/control${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`simulator ${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

let inviteCounter = 0;
async function guildWithInvite(owner: Member, botMember: boolean) {
  const guild = await control<{ id: string }>('/guilds', 'POST', {
    name: `Scale ${owner.username}`,
    ownerId: owner.user.discordId,
    botMember,
  });
  inviteCounter += 1;
  const code = `scale${inviteCounter}x${Math.random().toString(36).slice(2, 8)}`;
  await control(`/guilds/${guild.id}/invites`, 'POST', { code, maxAge: 0 });
  return { guildId: guild.id, link: `https://discord.gg/${code}` };
}

async function q<T extends Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
  return (await database!.pool.query<T>(text, values)).rows;
}

/** Polls `check` until it returns true; fails with `what` after `ms` (a wait, not a timed assertion). */
async function until(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}\n${cluster?.describe() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two web processes and one bot process on one PostgreSQL and one Redis', () => {
  const members: Member[] = [];
  const botOwners: Member[] = [];
  const nobotOwners: Member[] = [];
  const botCampaigns: ApiServer[] = [];
  const nobotCampaigns: ApiServer[] = [];
  /** Campaign id → its Discord guild (a no-bot campaign's serverId is not shown). */
  const guildOf = new Map<string, string>();
  /** API answers to claims: user id → type → number of 200s. */
  const claimWins = new Map<string, Record<RewardType, number>>();
  let web: [string, string];
  /** Each step builds on the ones before: a step after a failed one fails too, not vacuously passes. */
  const after = (step: string) => {
    if (!done.has(step)) throw new Error(`not run: the step "${step}" did not complete`);
  };
  const done = new Set<string>();

  it(
    'signs 200 users in through the OAuth flow, spread over both web processes',
    { timeout: 120_000 },
    async () => {
      web = [cluster!.webUrls[0]!, cluster!.webUrls[1]!];
      const users = Array.from({ length: USERS }, (_, i) => new Member(`scale_user_${i}`));
      await pool(users, CONCURRENCY, (user, i) => user.signIn(web[i % 2]!));
      botOwners.push(...users.slice(0, BOT_OWNERS));
      nobotOwners.push(...users.slice(BOT_OWNERS, BOT_OWNERS + NOBOT_OWNERS));
      members.push(...users.slice(BOT_OWNERS + NOBOT_OWNERS));
      // A session made on one web process is good on the other (sessions live in Redis).
      const crossed = await pool(users, CONCURRENCY, (user, i) =>
        user.get<{ id: string }>(web[(i + 1) % 2]!, '/api/auth/user'),
      );
      expect(crossed.map((r) => r.status)).toEqual(users.map(() => 200));
      expect(crossed.map((r) => r.body.id)).toEqual(users.map((u) => u.user.id));
      const [row] = await q<{ n: number }>('SELECT count(*)::int AS n FROM users');
      expect(row?.n).toBe(USERS);
      done.add('sign-in');
    },
  );

  it(
    'lets each reward be claimed once when the same user claims it through both web processes at once',
    { timeout: 120_000 },
    async () => {
      after('sign-in');
      const all = [...botOwners, ...nobotOwners, ...members];
      const jobs = all.flatMap((user) => REWARD_TYPES.map((type) => ({ user, type })));
      const answers = await pool(jobs, CONCURRENCY / 2, ({ user, type }) =>
        Promise.all(web.map((base) => user.post(base, '/api/hourly/claim', { type }))),
      );
      answers.forEach((pair, i) => {
        const { user, type } = jobs[i]!;
        const wins = pair.filter((r) => r.status === 200).length;
        const entry = claimWins.get(user.user.id) ?? { regular: 0, bonus: 0, daily: 0 };
        entry[type] += wins;
        claimWins.set(user.user.id, entry);
        // Exactly one of the two; the other is told to wait (never a 500).
        expect(pair.map((r) => r.status).sort()).toEqual([200, 425]);
      });
      // A second round a moment later: every claim is within its cooldown.
      const again = await pool(all, CONCURRENCY / 2, (user, i) =>
        user.post(web[i % 2]!, '/api/hourly/claim', { type: 'regular' }),
      );
      expect(again.filter((r) => r.status !== 425)).toEqual([]);
      const balances = await pool(all, CONCURRENCY, (user, i) =>
        user.get<{ coins: string }>(web[i % 2]!, '/api/auth/user'),
      );
      expect(new Set(balances.map((b) => b.body.coins))).toEqual(new Set([(START_CENTS / 100).toFixed(2)]));
      done.add('claims');
    },
  );

  it(
    'takes one of two racing campaign submits when the balance covers one (no overdraft), and Discover shows it on the other web process',
    { timeout: 120_000 },
    async () => {
      after('claims');
      const cost = CAMPAIGN_KIND_RULES.regular.costPerSlotCents;
      const botResults = await pool(botOwners, CONCURRENCY / 2, async (owner) => {
        const a = await guildWithInvite(owner, true);
        const b = await guildWithInvite(owner, true);
        const pair = await Promise.all([
          owner.post<ApiServer>(web[0], '/api/servers', {
            name: `Scale A ${owner.username}`,
            inviteLink: a.link,
            coinReward: String((BOT_SLOTS * cost) / 100),
          }),
          owner.post<ApiServer>(web[1], '/api/servers', {
            name: `Scale B ${owner.username}`,
            inviteLink: b.link,
            coinReward: String((BOT_SLOTS * cost) / 100),
          }),
        ]);
        if (pair[0].status === 201) guildOf.set(pair[0].body.id, a.guildId);
        if (pair[1].status === 201) guildOf.set(pair[1].body.id, b.guildId);
        return pair;
      });
      const nobotResults = await pool(nobotOwners, CONCURRENCY / 2, async (owner) => {
        const a = await guildWithInvite(owner, false);
        const b = await guildWithInvite(owner, false);
        const pair = await Promise.all(
          [a, b].map((g, i) =>
            owner.post<ApiServer>(web[i]!, '/api/servers/no-bot', {
              name: `Scale NB${i} ${owner.username}`,
              inviteLink: g.link,
              memberCount: NOBOT_SLOTS,
            }),
          ),
        );
        pair.forEach((r, i) => {
          if (r.status === 201) guildOf.set(r.body.id, [a, b][i]!.guildId);
        });
        return pair;
      });
      for (const [results, into] of [
        [botResults, botCampaigns],
        [nobotResults, nobotCampaigns],
      ] as const) {
        for (const pair of results) {
          expect(pair.map((r) => r.status).sort()).toEqual([201, 402]);
          into.push(pair.find((r) => r.status === 201)!.body);
        }
      }
      expect(botCampaigns.map((c) => c.membersRemaining)).toEqual(botCampaigns.map(() => BOT_SLOTS));
      // Each owner paid for the campaign that was created, and only for it.
      const owners = [...botOwners, ...nobotOwners];
      const coins = await pool(owners, CONCURRENCY, (o, i) =>
        o.get<{ coins: string }>(web[i % 2]!, '/api/auth/user'),
      );
      coins.forEach((c, i) => {
        const slots = i < BOT_OWNERS ? BOT_SLOTS : NOBOT_SLOTS;
        expect(c.body.coins).toBe(((START_CENTS - slots * cost) / 100).toFixed(2));
      });
      // Discover coherence: a campaign created through one web process is listed by the other (the list
      // is cached in each process and kept current from PostgreSQL's notifications).
      const viewer = members[0]!;
      for (const [i, campaign] of botCampaigns.entries()) {
        const created = botResults[i]!.findIndex((r) => r.status === 201);
        const other = web[1 - created]!;
        await until(`${campaign.name} on Discover of web ${2 - created}`, 15_000, async () => {
          const res = await viewer.get<ApiDiscoverServer[]>(
            other,
            `/api/servers?q=${encodeURIComponent(campaign.name)}`,
          );
          return res.status === 200 && res.body.some((s) => s.id === campaign.id);
        });
      }
      done.add('campaigns');
    },
  );

  it(
    'verifies and credits each join once through the bot, never beyond the slots, while members join through both web processes',
    { timeout: 180_000 },
    async () => {
      after('campaigns');
      // Every member joins a bot campaign, each join sent to both web processes at once: 8 or 9
      // members for each campaign's 8 slots, so slots run out while the bot is verifying.
      const joins = members.map((member, m) => ({ member, campaign: botCampaigns[m % BOT_OWNERS]! }));
      // The no-bot campaigns: NOBOT_CLAIMERS members each, who claim later (after the product's wait).
      const nobotJoins = nobotCampaigns.flatMap((campaign, c) =>
        members.slice(c * NOBOT_CLAIMERS, (c + 1) * NOBOT_CLAIMERS).map((member) => ({ member, campaign })),
      );
      const joinAnswers = await pool([...nobotJoins, ...joins], CONCURRENCY / 2, ({ member, campaign }) =>
        Promise.all(web.map((base) => member.post(base, `/api/servers/${campaign.id}/join`))),
      );
      // Every join row was written before its answer: the product's wait counts from here at the latest.
      const nobotJoinedAt = Date.now();
      // Both answers of a racing pair are the same join (the second sees the first's pending row).
      for (const pair of joinAnswers) expect(pair.map((r) => r.status)).toEqual([200, 200]);
      const duplicates = await q(
        'SELECT user_id, server_id FROM server_joins GROUP BY 1, 2 HAVING count(*) > 1',
      );
      expect(duplicates).toEqual([]);

      // Members accept the invites on Discord: the simulator adds them to the guilds and dispatches
      // GUILD_MEMBER_ADD to the bot process, which verifies and credits. A third of the adds are
      // dispatched twice (a gateway resend), which must not pay twice.
      await pool([...nobotJoins, ...joins], CONCURRENCY, async ({ member, campaign }, i) => {
        const guildId = guildOf.get(campaign.id)!;
        await control(`/guilds/${guildId}/members`, 'POST', { userId: member.user.discordId });
        if (i % 3 === 0 && campaign.kind !== 'nobot')
          await control(`/guilds/${guildId}/members`, 'POST', {
            userId: member.user.discordId,
            redispatch: true,
          });
      });
      // Settled: every bot-campaign join is verified (paid, or closed without a slot).
      await until('every bot join verified', 60_000, async () => {
        const [row] = await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM server_joins j JOIN servers s ON s.id = j.server_id
         WHERE s.kind <> 'nobot' AND NOT j.verified`,
        );
        return row!.n === 0;
      });
      const perCampaign = await q<{
        id: string;
        remaining: number;
        slots: number;
        paid: number;
        rewards: number;
      }>(
        `SELECT s.id, s.members_remaining AS remaining, s.initial_member_slots AS slots,
              (SELECT count(*)::int FROM server_joins j WHERE j.server_id = s.id AND j.coins_awarded) AS paid,
              (SELECT count(*)::int FROM transactions t JOIN server_joins j ON t.idempotency_key = 'join:' || j.id
                WHERE j.server_id = s.id AND t.type = 'join_reward') AS rewards
       FROM servers s WHERE s.kind <> 'nobot'`,
      );
      expect(perCampaign).toHaveLength(BOT_OWNERS);
      for (const c of perCampaign)
        expect(c).toMatchObject({ remaining: 0, slots: BOT_SLOTS, paid: BOT_SLOTS, rewards: BOT_SLOTS });
      // Every campaign filled: its owner was told once (the completion DM is claimed on the row).
      await until('completion DMs claimed', 30_000, async () => {
        const [row] = await q<{ n: number }>(
          `SELECT count(*)::int AS n FROM servers WHERE kind <> 'nobot' AND NOT completion_notification_sent`,
        );
        return row!.n === 0;
      });
      const dms = await control<{ recipientId: string }[]>('/dms', 'GET');
      for (const owner of botOwners) {
        const toOwner = dms.filter((d) => d.recipientId === owner.user.discordId);
        expect(toOwner.length, `DMs to ${owner.username}`).toBe(1);
      }

      // No-bot claims: after the wait, each claimer claims through both web processes at once.
      const wait = nobotJoinedAt + NOBOT_CLAIM_DELAY_MS + 500 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const claims = await pool(nobotJoins, CONCURRENCY / 2, ({ member, campaign }) =>
        Promise.all(web.map((base) => member.post(base, `/api/servers/${campaign.id}/claim-nobot`))),
      );
      for (const pair of claims) expect(pair.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
      for (const pair of claims) expect(pair.every((r) => r.status < 500)).toBe(true);
      const paidClaims = claims.filter((pair) => pair.some((r) => r.status === 200)).length;
      const answers = claims.flat().map((r) => `${r.status} ${JSON.stringify(r.body)}`);
      const tally = [...new Set(answers)].map((a) => `${answers.filter((b) => b === a).length}× ${a}`);
      expect(paidClaims, tally.join('\n')).toBe(NOBOT_OWNERS * NOBOT_SLOTS);
      const nobot = await q<{ remaining: number; paid: number; rewards: number }>(
        `SELECT s.members_remaining AS remaining,
              (SELECT count(*)::int FROM server_joins j WHERE j.server_id = s.id AND j.coins_awarded) AS paid,
              (SELECT count(*)::int FROM transactions t JOIN server_joins j ON t.idempotency_key = 'nobot:' || j.id
                WHERE j.server_id = s.id AND t.type = 'nobot_reward') AS rewards
       FROM servers s WHERE s.kind = 'nobot'`,
      );
      expect(nobot).toEqual(
        nobotCampaigns.map(() => ({ remaining: 0, paid: NOBOT_SLOTS, rewards: NOBOT_SLOTS })),
      );
      done.add('joins');
    },
  );

  it('leaves the ledger balanced for every user, with no overdraft, and each owner paid slots × cost', async () => {
    after('joins');
    const unbalanced = await q(
      `SELECT u.id, u.coins, COALESCE(sum(t.amount), 0)::bigint AS total FROM users u
       LEFT JOIN transactions t ON t.user_id = u.id GROUP BY u.id HAVING u.coins <> COALESCE(sum(t.amount), 0)`,
    );
    expect(unbalanced).toEqual([]);
    const negative = await q('SELECT id, coins FROM users WHERE coins < 0');
    expect(negative).toEqual([]);
    // One reward of each kind per user: the database agrees with what the API answered.
    const rewards = await q<{ user_id: string; type: string; n: number }>(
      `SELECT user_id, type, count(*)::int AS n FROM transactions WHERE type IN ('hourly', 'bonus', 'daily') GROUP BY 1, 2`,
    );
    expect(rewards).toHaveLength(USERS * 3);
    for (const r of rewards) {
      expect(r.n).toBe(1);
      const type = ({ hourly: 'regular', bonus: 'bonus', daily: 'daily' } as const)[r.type as 'hourly'];
      expect(claimWins.get(r.user_id)?.[type]).toBe(1);
    }
    // Owners: one campaign each, paid slots × cost per slot, once.
    const paid = await q<{
      owner_id: string;
      campaigns: number;
      slots: number;
      spent: number;
      debits: number;
    }>(
      `SELECT s.owner_id, count(*)::int AS campaigns, sum(s.initial_member_slots)::int AS slots,
              (SELECT -sum(amount)::int FROM transactions t WHERE t.user_id = s.owner_id AND t.type = 'campaign') AS spent,
              (SELECT count(*)::int FROM transactions t WHERE t.user_id = s.owner_id AND t.type = 'campaign') AS debits
       FROM servers s GROUP BY s.owner_id`,
    );
    expect(paid).toHaveLength(BOT_OWNERS + NOBOT_OWNERS);
    for (const p of paid) {
      expect(p.campaigns).toBe(1);
      expect(p.debits).toBe(1);
      expect(p.spent).toBe(p.slots * CAMPAIGN_KIND_RULES.regular.costPerSlotCents);
    }
    // One reward per paid join, under its key; none for a join without a slot.
    const [joinRewards] = await q<{ rewards: number; paid: number; keys: number }>(
      `SELECT (SELECT count(*)::int FROM transactions WHERE type IN ('join_reward', 'nobot_reward')) AS rewards,
              (SELECT count(*)::int FROM server_joins WHERE coins_awarded) AS paid,
              (SELECT count(DISTINCT idempotency_key)::int FROM transactions WHERE type IN ('join_reward', 'nobot_reward')) AS keys`,
    );
    expect(joinRewards).toEqual({
      rewards: BOT_OWNERS * BOT_SLOTS + NOBOT_OWNERS * NOBOT_SLOTS,
      paid: BOT_OWNERS * BOT_SLOTS + NOBOT_OWNERS * NOBOT_SLOTS,
      keys: BOT_OWNERS * BOT_SLOTS + NOBOT_OWNERS * NOBOT_SLOTS,
    });
    // What the API shows each member is what the database holds.
    const everyone = [...botOwners, ...nobotOwners, ...members];
    const shown = await pool(everyone, CONCURRENCY, (u, i) =>
      u.get<{ coins: string }>(web[i % 2]!, '/api/auth/user'),
    );
    const held = new Map(
      (await q<{ id: string; coins: number }>('SELECT id, coins FROM users')).map((r) => [r.id, r.coins]),
    );
    expect(shown.map((s) => s.body.coins)).toEqual(
      everyone.map((u) => (held.get(u.user.id)! / 100).toFixed(2)),
    );
  });

  it('ran each periodic job once per period, in the bot process only', async () => {
    // Invite stats come due 5 s after start; the other jobs' first periods (5 and 30 min) are longer
    // than this test. Their runs are claimed in job_runs (src/ops/run-once.ts).
    await until('the first invite stats run', 30_000, async () => {
      const rows = await q(`SELECT 1 FROM job_runs WHERE job = 'invite stats' AND outcome IS NOT NULL`);
      return rows.length > 0;
    });
    const runs = await q<{ job: string; period: number; runner: string; outcome: string | null }>(
      'SELECT job, period, runner, outcome FROM job_runs ORDER BY job, period',
    );
    const botPid = cluster!.bot[0]!.child.pid;
    for (const run of runs) {
      expect(run.runner).toMatch(new RegExp(`:${botPid}$`));
      // A run that has begun and not ended yet (another job's first period, read mid-run) has no outcome.
      if (run.outcome !== null) expect(run.outcome).toBe('ok');
    }
    expect(runs.filter((r) => r.outcome === 'ok').length).toBeGreaterThan(0);
    const periods = runs.map((r) => `${r.job}@${r.period}`);
    expect(new Set(periods).size).toBe(periods.length);
    // Nothing else wrote to the log of runs: a web process runs no job.
    for (const proc of cluster!.web)
      expect(proc.output.join('\n')).not.toMatch(/invite stats|reconcile timer/);
  });
});

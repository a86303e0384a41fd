import os from 'node:os';
import { and, eq } from 'drizzle-orm';
import { campaignJoins, users } from '../../src/db/schema.ts';
import { reconcile, type ReconcileResult } from '../../src/bot/reconcile.ts';
import { checkMemberJoins } from '../../src/bot/member-sweep.ts';
import { saveOAuthTokens } from '../../src/auth/oauth-tokens.ts';
import { DAY } from '../../src/clock.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/sim/discord/rate-limits.ts';
import { insertCampaign } from '../../src/test/factories.ts';
import { startTestApp } from '../../src/test/harness.ts';
import { addSimUser } from '../../src/test/open-joins.ts';

// The member loop without the Server Members intent at scale (issue 26 item 7), against the simulator
// with Discord's real rate limits (global 50/s per token, per-route buckets, 429s counted):
//
//   npm run bench -- --member-sweep [--guilds 200] [--members 2000] [--joins-per-member 10]
//                   [--leavers 20] [--returning 50] [--no-tokens]
//     guilds × members: every member paid for `joins-per-member` guilds and inside the stay (20,000
//     in-stay joins by default). Then: (1) a sweep where nobody left — requests, 429s, invalid
//     requests, wall time; (2) `leavers` leave on their own and the next sweep charges them — the
//     detection delay is the sweep period plus this wall time; (3) `returning` members with a pending
//     join arrive and come back to the site at once — the verification latency of the check
//     (POST /api/joins/check's service), p50/p99. --no-tokens: members without OAuth tokens (the
//     bot looks every join up, up to the bot's 50/s, which people's calls use first).

export interface MemberSweepBenchArgs {
  guilds: number;
  members: number;
  joinsPerMember: number;
  leavers: number;
  returning: number;
  tokens: boolean;
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export async function runMemberSweepBench(args: MemberSweepBenchArgs): Promise<boolean> {
  const [l1, l5] = os.loadavg();
  console.log(
    `member-sweep bench: ${os.cpus().length} cores, load average ${l1?.toFixed(2)} / ${l5?.toFixed(2)} (1 / 5 min) at start`,
  );
  const app = await startTestApp({
    background: false,
    discordMembersIntent: false,
    env: { DISCORD_MEMBERS_INTENT: 'off' },
  });
  // Discord's real limits, not the tests' shortened windows.
  app.sim.state.rateLimits.configure(DEFAULT_RATE_LIMITS);
  const { ctx } = app.server;
  const db = ctx.db;
  const sim = app.sim.state;
  try {
    const seedStart = performance.now();
    const now = app.clock.now();
    const ownerSim = sim.createUser({ username: 'sweep_owner' });
    const owner = db
      .insert(users)
      .values({ discordId: ownerSim.id, discordUsername: ownerSim.username, createdAt: now })
      .returning({ id: users.id })
      .get();
    const perGuild = Math.ceil((args.members * args.joinsPerMember) / args.guilds) + args.returning + 10;
    const guilds: { id: string; campaignId: string }[] = [];
    for (let g = 0; g < args.guilds; g++) {
      const guild = sim.createGuild({ name: `sweep guild ${g}`, ownerId: ownerSim.id, botMember: true });
      const campaign = await insertCampaign(ctx.store, {
        ownerId: owner.id,
        name: guild.name,
        guildId: guild.id,
        membersRemaining: perGuild,
        createdAt: now,
      });
      guilds.push({ id: guild.id, campaignId: campaign.id });
    }
    const joinedAt = new Date(now - 1000).toISOString();
    const step = Math.max(1, Math.floor(args.guilds / args.joinsPerMember));
    const members: { userId: string; discordId: string; guilds: number[] }[] = [];
    const scope = 'identify email guilds';
    const addMembers = async (count: number, prefix: string, withJoins: boolean) => {
      const out: typeof members = [];
      for (let i = 0; i < count; i++) {
        const u = addSimUser(app, `${prefix}_${i}`);
        const row = db
          .insert(users)
          .values({ discordId: u.id, discordUsername: u.username, createdAt: now })
          .returning({ id: users.id })
          .get();
        if (args.tokens) {
          const accessToken = `${prefix}-token-${i}`;
          sim.tokens.set(accessToken, {
            userId: u.id,
            scope,
            expiresAt: Date.now() + 7 * DAY,
            refreshToken: `${accessToken}-r`,
          });
          await saveOAuthTokens(
            ctx.store,
            ctx.config.tokenEncryptionKey,
            row.id,
            { accessToken, refreshToken: `${accessToken}-r`, expiresIn: 7 * 86_400, scope },
            now,
          );
        }
        const mine = withJoins
          ? Array.from({ length: args.joinsPerMember }, (_, k) => (i + k * step) % args.guilds)
          : [];
        for (const g of mine) {
          sim.guilds.get(guilds[g]!.id)!.members[u.id] = { joinedAt };
          db.insert(campaignJoins)
            .values({
              userId: row.id,
              campaignId: guilds[g]!.campaignId,
              joinedAt: now - 2000,
              verified: true,
              verifiedAt: now,
              coinsAwarded: true,
              discordJoinedAt: now - 1000,
              rewardCents: 50,
              minStayMs: 2 * DAY,
              penaltyCents: 200,
            })
            .run();
        }
        out.push({ userId: row.id, discordId: u.id, guilds: mine });
      }
      return out;
    };
    members.push(...(await addMembers(args.members, 'sweeper', true)));
    const inStay = args.members * args.joinsPerMember;
    console.log(
      `seeded ${inStay} in-stay joins of ${args.members} members over ${args.guilds} guilds (${round((performance.now() - seedStart) / 1000)} s)`,
    );
    app.clock.advance(60 * 60_000);

    const measure = async (label: string) => {
      const sim0 = sim.rateLimits.stats();
      const rest0 = ctx.discord.stats();
      const started = performance.now();
      const result: ReconcileResult = await reconcile(ctx, { withoutMembersIntent: true });
      const wallS = (performance.now() - started) / 1000;
      const sim1 = sim.rateLimits.stats();
      const rest1 = ctx.discord.stats();
      return {
        sweep: label,
        wallSeconds: round(wallS),
        restRequestsSent: sim1.requests - sim0.requests,
        rateLimited429: rest1.rateLimited - rest0.rateLimited,
        globalRateLimited429: sim1.globalRateLimited - sim0.globalRateLimited,
        invalidRequests: sim1.invalidRequests - sim0.invalidRequests,
        lookups: result.lookups,
        charged: result.left,
        failedGuilds: result.failed,
        heldBack: result.heldBack,
      };
    };

    // (1) Nobody left: what a sweep of 20,000 in-stay joins costs.
    const quiet = await measure('nobody left');
    // (2) Leavers spread over guilds (under the safety valve: one per guild, fewer than 50 a run).
    const leavers = Array.from({ length: args.leavers }, (_, k) => members[(k * 97) % members.length]!);
    const left: { userId: string; guildIndex: number }[] = [];
    for (const [k, m] of leavers.entries()) {
      const g = m.guilds[k % m.guilds.length]!;
      delete sim.guilds.get(guilds[g]!.id)!.members[m.discordId];
      left.push({ userId: m.userId, guildIndex: g });
    }
    const leaves = await measure(`${args.leavers} left`);
    const charged = left.filter(
      ({ userId, guildIndex }) =>
        db
          .select({ p: campaignJoins.penalized })
          .from(campaignJoins)
          .where(
            and(
              eq(campaignJoins.userId, userId),
              eq(campaignJoins.campaignId, guilds[guildIndex]!.campaignId),
            ),
          )
          .get()?.p === true,
    ).length;

    // (3) Members come back from the invite: the check's latency (all at once, as a burst).
    const returning = await addMembers(args.returning, 'returner', false);
    for (const [k, m] of returning.entries()) {
      const g = guilds[k % guilds.length]!;
      db.insert(campaignJoins)
        .values({ userId: m.userId, campaignId: g.campaignId, joinedAt: app.clock.now() })
        .run();
      sim.guilds.get(g.id)!.members[m.discordId] = {
        joinedAt: new Date(app.clock.now() + 1000).toISOString(),
      };
    }
    // Latency: from the member's check to their join paid (a check answers within its 2 s budget;
    // look-ups still running then finish in the background, so the reward may land after the answer).
    const latencies: number[] = [];
    const answers: number[] = [];
    const isPaid = (userId: string) =>
      db
        .select({ paid: campaignJoins.coinsAwarded })
        .from(campaignJoins)
        .where(eq(campaignJoins.userId, userId))
        .get()?.paid === true;
    await Promise.all(
      returning.map(async (m) => {
        const t0 = performance.now();
        await checkMemberJoins(ctx, { userId: m.userId, discordUserId: m.discordId });
        answers.push(performance.now() - t0);
        while (!isPaid(m.userId) && performance.now() - t0 < 30_000)
          await new Promise((r) => setTimeout(r, 10));
        if (isPaid(m.userId)) latencies.push(performance.now() - t0);
      }),
    );
    const paid = latencies.length;
    latencies.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    app.assertLedger();
    console.log(
      JSON.stringify(
        {
          bench: 'member-sweep (no Server Members intent)',
          guilds: args.guilds,
          members: args.members,
          inStayJoins: inStay,
          memberTokens: args.tokens,
          rateLimits:
            'Discord defaults: global 50/s per token, GET /guilds/{g}/members/{u} 10/s per guild, GET /users/@me/guilds 5 per 5 s per token',
          sweeps: [quiet, leaves],
          leaversCharged: charged,
          verificationAfterReturn: {
            members: args.returning,
            paid,
            arrivingAtOnce: true,
            paidAfterMs: {
              p50: round(percentile(latencies, 0.5) ?? 0, 0),
              p99: round(percentile(latencies, 0.99) ?? 0, 0),
              max: round(latencies.at(-1) ?? 0, 0),
            },
            checkAnsweredAfterMs: {
              p50: round(percentile(answers, 0.5) ?? 0, 0),
              p99: round(percentile(answers, 0.99) ?? 0, 0),
            },
          },
          leaveDetectionDelay:
            'a leave is charged by the first sweep after it: at most MEMBER_SWEEP_SECONDS + the sweep wall time above',
        },
        null,
        2,
      ),
    );
    return charged === args.leavers && paid === args.returning && quiet.charged === 0;
  } finally {
    await app.close();
  }
}

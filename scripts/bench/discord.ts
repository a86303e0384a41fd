import os from 'node:os';
import { and, eq, inArray } from 'drizzle-orm';
import { campaignJoins } from '../../src/db/schema.ts';
import { reconcile, type ReconcileResult } from '../../src/bot/reconcile.ts';
import { startBotTestApp } from '../../src/bot/bot-test-kit.ts';
import { startTestApp, type TestApp } from '../../src/test/harness.ts';
import { seedOpenJoins } from '../../src/test/open-joins.ts';

// Discord benches (issue 11 item 9, issue 13 item 7), against the simulator with its default rate
// limits (global 50/s, per-route buckets with X-RateLimit-* headers), everything on loopback:
//
//   npm run bench -- --reconcile [--guilds 200] [--joins-per-guild 100] [--guild-size 500] [--via rest|auto]
//     Reconciliation of guilds × joins open website joins (members already in their guilds, no gateway
//     event): wall time, REST requests sent, 429s received, invalid requests, lookups by kind.
//     --via rest: REST only (no bot); --via auto: the bot's gateway too (op 8 where cheaper).
//   npm run bench -- --mass-leave [--leavers 500] [--arrivals 20] [--leave-reason leave|kick]
//     A guild loses `leavers` paid members at once (production audit-log timings: first look 1.5 s,
//     second look 15 s); meanwhile `arrivals` members arrive. Time until every removal is settled, and
//     how long each arrival waited for its verification.

export interface DiscordBenchArgs {
  reconcile: boolean;
  massLeave: boolean;
  guilds: number;
  joinsPerGuild: number;
  guildSize: number;
  via: 'rest' | 'auto';
  leavers: number;
  arrivals: number;
  /** How the mass-leave members go: on their own (charged after the second look) or kicked (a raid clean-up). */
  leaveReason: 'leave' | 'kick';
}

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function machine(): string {
  const [l1, l5] = os.loadavg();
  return `${os.cpus().length} cores, load average ${l1?.toFixed(2)} / ${l5?.toFixed(2)} (1 / 5 min) at start`;
}

function countPaid(app: TestApp, campaignIds: string[]): number {
  let n = 0;
  for (let i = 0; i < campaignIds.length; i += 500) {
    n += app.server.ctx.db
      .select({ id: campaignJoins.id })
      .from(campaignJoins)
      .where(
        and(
          inArray(campaignJoins.campaignId, campaignIds.slice(i, i + 500)),
          eq(campaignJoins.coinsAwarded, true),
        ),
      )
      .all().length;
  }
  return n;
}

async function benchReconcile(args: DiscordBenchArgs): Promise<boolean> {
  console.log(`reconcile bench: ${machine()}`);
  const app = args.via === 'rest' ? await startTestApp({ background: false }) : await startBotTestApp();
  try {
    const seedStart = performance.now();
    const seeded = await seedOpenJoins(app, {
      prefix: 'bench',
      guilds: args.guilds,
      joinsPerGuild: args.joinsPerGuild,
      otherMembers: Math.max(0, args.guildSize - args.joinsPerGuild - 1),
      slots: args.joinsPerGuild + 1, // no campaign completes: no owner DMs in the figures
    });
    const campaignIds = seeded.map((s) => s.campaign.id);
    const total = args.guilds * args.joinsPerGuild;
    console.log(
      `seeded ${total} open joins in ${args.guilds} guilds of ${args.guildSize} members (${round((performance.now() - seedStart) / 1000)} s)`,
    );
    const gateway = args.via === 'auto' ? app.server.background.bot?.members : undefined;
    if (gateway) {
      const last = seeded.at(-1)!.guild.id;
      while (gateway.memberCount(last) === null) await new Promise((r) => setTimeout(r, 50));
    }
    const sim0 = app.sim.state.rateLimits.stats();
    const rest0 = app.server.ctx.discord.stats();
    const started = performance.now();
    let runs = 0;
    const results: ReconcileResult[] = [];
    while (countPaid(app, campaignIds) < total && runs < 5) {
      runs += 1;
      results.push(await reconcile(app.server.ctx, { gateway }));
    }
    const wallS = (performance.now() - started) / 1000;
    const sim1 = app.sim.state.rateLimits.stats();
    const rest1 = app.server.ctx.discord.stats();
    const paid = countPaid(app, campaignIds);
    app.assertLedger();
    const lookups = results.reduce(
      (acc, r) => ({
        single: acc.single + r.lookups.single,
        pages: acc.pages + r.lookups.pages,
        gateway: acc.gateway + r.lookups.gateway,
        gatewayFallbacks: acc.gatewayFallbacks + r.lookups.gatewayFallbacks,
      }),
      { single: 0, pages: 0, gateway: 0, gatewayFallbacks: 0 },
    );
    console.log(
      JSON.stringify(
        {
          bench: 'reconcile',
          via: args.via,
          guilds: args.guilds,
          openJoins: total,
          guildSize: args.guildSize,
          runs,
          verified: paid,
          wallSeconds: round(wallS),
          joinsPerSecond: round(paid / wallS),
          restRequestsSent: sim1.requests - sim0.requests,
          responsesReceived: rest1.responses - rest0.responses,
          rateLimited429: rest1.rateLimited - rest0.rateLimited,
          heldBackByBucketsOrGlobal: rest1.waitedForBucket - rest0.waitedForBucket,
          invalidRequests: sim1.invalidRequests - sim0.invalidRequests,
          lookups,
          failedGuilds: results.reduce((n, r) => n + r.failed, 0),
          phaseSeconds: results.map((r) => ({
            lookup: round(r.phaseMs.lookup / 1000),
            leaves: round(r.phaseMs.leaves / 1000),
            arrivals: round(r.phaseMs.arrivals / 1000),
          })),
        },
        null,
        2,
      ),
    );
    return paid === total;
  } finally {
    await app.close();
  }
}

async function benchMassLeave(args: DiscordBenchArgs): Promise<boolean> {
  console.log(`mass-leave bench: ${machine()}`);
  // Production timings of the audit-log looks (tests use 0).
  const app = await startBotTestApp({ bot: { auditLogDelayMs: 1500, auditLogRecheckMs: 15_000 } });
  try {
    const [seeded] = await seedOpenJoins(app, {
      prefix: 'raid',
      guilds: 1,
      joinsPerGuild: args.leavers + args.arrivals,
      slots: args.leavers + args.arrivals + 10,
    });
    const { guild, campaign, userIds, discordIds } = seeded!;
    const leavers = discordIds.slice(0, args.leavers);
    const arrivals = discordIds.slice(args.leavers);
    // The arrivals are not in the guild yet; the leavers are, and get paid first.
    for (const id of arrivals) delete guild.members[id];
    await app.server.background.bot!.idle();
    await reconcile(app.server.ctx);
    if (countPaid(app, [campaign.id]) !== args.leavers)
      throw new Error('mass-leave bench: seeding did not pay the leavers');
    const joinOf = (i: number) =>
      app.server.ctx.db.select().from(campaignJoins).where(eq(campaignJoins.userId, userIds[i]!)).get();

    const rest0 = app.server.ctx.discord.stats();
    const sim0 = app.sim.state.rateLimits.stats();
    const started = performance.now();
    for (const id of leavers) app.sim.state.removeMember(guild.id, id, { reason: args.leaveReason });
    // Arrivals in the same guild while the removals are being settled.
    const arrivedAt: number[] = [];
    const verifiedAfter: (number | null)[] = arrivals.map(() => null);
    for (const id of arrivals) {
      arrivedAt.push(performance.now());
      app.sim.state.addMember(guild.id, id);
    }
    let allSettledMs: number | null = null;
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      for (let a = 0; a < arrivals.length; a++) {
        if (verifiedAfter[a] === null && joinOf(args.leavers + a)?.coinsAwarded)
          verifiedAfter[a] = performance.now() - arrivedAt[a]!;
      }
      if (allSettledMs === null) {
        let settled = 0;
        for (let i = 0; i < args.leavers; i++) if (joinOf(i)?.hasLeft) settled += 1;
        if (settled === args.leavers) allSettledMs = performance.now() - started;
      }
      if (allSettledMs !== null && verifiedAfter.every((v) => v !== null)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    await app.server.background.bot!.idle();
    const rest1 = app.server.ctx.discord.stats();
    const sim1 = app.sim.state.rateLimits.stats();
    app.assertLedger();
    const waits = verifiedAfter.filter((v): v is number => v !== null).sort((a, b) => a - b);
    const penalized = Array.from({ length: args.leavers }, (_, i) => joinOf(i)).filter(
      (j) => j?.penalized,
    ).length;
    console.log(
      JSON.stringify(
        {
          bench: 'mass-leave',
          leavers: args.leavers,
          leaveReason: args.leaveReason,
          arrivals: args.arrivals,
          auditLogLooks: '1.5 s, then 15 s for removals the first look did not explain',
          allRemovalsSettledSeconds: allSettledMs === null ? null : round(allSettledMs / 1000, 2),
          penalized,
          arrivalVerifiedMs: {
            p50: waits.length ? round(waits[Math.floor(waits.length / 2)]!, 0) : null,
            max: waits.length ? round(waits.at(-1)!, 0) : null,
            verified: waits.length,
          },
          restRequestsSent: sim1.requests - sim0.requests,
          rateLimited429: rest1.rateLimited - rest0.rateLimited,
        },
        null,
        2,
      ),
    );
    const expectedPenalties = args.leaveReason === 'leave' ? args.leavers : 0;
    return allSettledMs !== null && waits.length === args.arrivals && penalized === expectedPenalties;
  } finally {
    await app.close();
  }
}

/** Runs the benches asked for; false when one did not complete as it should (not paid, not settled). */
export async function runDiscordBench(args: DiscordBenchArgs): Promise<boolean> {
  let ok = true;
  if (args.reconcile) ok = (await benchReconcile(args)) && ok;
  if (args.massLeave) ok = (await benchMassLeave(args)) && ok;
  return ok;
}

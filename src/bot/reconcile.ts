import type { AppContext } from '../context.ts';
import {
  lookUpMembers,
  newLookupCounters,
  type GatewayMembers,
  type LookupCounters,
} from './member-lookup.ts';
import { LONGEST_MIN_STAY_MS, PENDING_JOIN_MAX_AGE_MS, frozenMinStayMs } from './rules.ts';
import { verifyJoin } from './verify-join.ts';
import { findOpenPaidJoin, removalSince, settleRemovals, type Removal } from './member-removed.ts';
import { pausedGuildIds, syncBotPresence } from './bot-presence.ts';
import { notifyPendingCompletions } from './completion-notice.ts';
import { inShard, type ShardScope } from './shards.ts';
import { botRepo } from './bot-repo.ts';
import { sweepMembers } from './member-sweep.ts';
import { holdAbsent, listHeld, refreshHeldGauge, resolveHeld } from './held-joins.ts';
import { errorMessage } from '../ops/error-text.ts';

// Gateway events get lost (outages, restarts, Discord's limited replay). Reconciliation asks Discord
// about every join whose outcome is still open and applies the same services the events use, so the
// result is the one the missed events would have produced.
//
// Paced and batched the way Discord allows: the bot's guild list first (200 per page), then per guild
// the cheapest lookup (member-lookup.ts): a few single-member requests, the member list (1,000 per
// page, only the id range needed) or gateway Request Guild Members (100 user ids per send). Every
// REST request goes through @discordjs/rest, which waits for buckets and the global limit; a guild
// that still fails is left for the next run, never concluded from.
//
// Safety valve (issue 12 item 5, issue 13 item 5): every guild is looked up before anything is
// charged. A guild where more than a share of the in-stay members is absent, or a run with more
// absent members than a set number (all guilds together), charges nothing there, logs an ALERT and
// waits for the next run. A truncated member list or a Discord incident must not turn into a wave of
// penalties.

export interface ReconcileResult {
  verified: number;
  left: number;
  notified: number;
  /** Guilds whose lookups failed (left for the next run). */
  failed: number;
  /** Guilds where the safety valve held back the charges. */
  heldBack: number;
  /** Members whose removal is held back now (this run's and earlier runs' holds still open). */
  held: number;
  paused: number;
  resumed: number;
  /** How members were looked up: REST single lookups, REST list pages, gateway op-8 sends. */
  lookups: LookupCounters;
  /** Wall time of the phases (ms): looking up, charging leaves, paying arrivals (benches, logs). */
  phaseMs: { lookup: number; leaves: number; arrivals: number };
}

export interface ReconcileOptions {
  /** Guilds checked at the same time (each has its own rate-limit bucket). */
  concurrency?: number;
  /** Without the gateway: up to this many members of a guild are looked up one by one; more, and the member list is paged. */
  singleLookupMax?: number;
  /** The bot's gateway (op 8 Request Guild Members), when connected; REST only without it. */
  gateway?: GatewayMembers;
  /**
   * Only the guilds on this shard ((guild_id >> 22) % count = id; campaigns without a guild go with
   * shard 0): the per-shard job `reconcile:shard-<id>` of the bot process that runs the shard.
   */
  shard?: ShardScope;
  /**
   * The bot runs without the Server Members intent (DISCORD_MEMBERS_INTENT=off, or Discord refused it):
   * no member list and no op 8; members are found through their own guild lists and the bot's single
   * look-ups (member-sweep.ts). Everything after the look-ups is the same.
   */
  withoutMembersIntent?: boolean;
  /** Without the intent: the sweep's bot look-ups per second (default member-sweep.ts). */
  sweepBotLookupsPerSecond?: number;
}

export interface SafetyValve {
  /** Share (0..1) of a guild's in-stay members that may be found absent in one run. */
  maxShare: number;
  /** Absent in-stay members that may be charged in one run, all guilds together. */
  maxCount: number;
  /** The share rule applies only from this many absent members on (one leaver of three is normal). */
  minCountForShare: number;
}

export const DEFAULT_SAFETY_VALVE: SafetyValve = { maxShare: 0.2, maxCount: 50, minCountForShare: 5 };

interface GuildWork {
  guildId: string;
  /** Paid members inside their stay: Discord user id -> their open join. */
  inStay: Map<string, { verifiedAt: number; discordJoinedAt: number | null }>;
  /** Discord user ids with a pending website join. */
  pending: Set<string>;
  /** In-stay members held back by an earlier run (held-joins.ts): id -> when first found absent. */
  held: Map<string, number>;
}

async function collectWork(
  ctx: AppContext,
  startedAt: number,
  shard?: ShardScope,
): Promise<Map<string, GuildWork>> {
  const work = new Map<string, GuildWork>();
  const of = (guildId: string): GuildWork => {
    let w = work.get(guildId);
    if (!w) work.set(guildId, (w = { guildId, inStay: new Map(), pending: new Set(), held: new Map() }));
    return w;
  };
  // Paid members still inside their minimum stay: those who are gone have left.
  const repo = botRepo(ctx.store.read);
  const open = await repo.listInStayJoins(startedAt - LONGEST_MIN_STAY_MS);
  for (const join of open) {
    if (!join.guildId || join.verifiedAt === null || !inShard(join.guildId, shard)) continue;
    if (join.verifiedAt + frozenMinStayMs(join, join.kind) <= startedAt) continue;
    of(join.guildId).inStay.set(join.discordUserId, {
      verifiedAt: join.verifiedAt,
      discordJoinedAt: join.discordJoinedAt,
    });
  }
  // Removals an earlier run held back stay in scope, even past the stay, until resolved (issue 29 item 7).
  for (const h of await listHeld(ctx.store.read)) {
    if (!inShard(h.guildId, shard)) continue;
    const join = await repo.findOpenPaidJoin(h.discordUserId, h.guildId);
    if (!join) {
      // Settled meanwhile (a late event, another process): nothing held any more.
      await resolveHeld(ctx.store, h, 'settled', startedAt);
      continue;
    }
    const w = of(h.guildId);
    w.inStay.set(h.discordUserId, join);
    w.held.set(h.discordUserId, h.firstAbsentAt);
  }
  // Pending website joins of bot campaigns: verify those who are in the guild now.
  const pending = await repo.listPendingMembers(startedAt - PENDING_JOIN_MAX_AGE_MS);
  for (const p of pending)
    if (p.guildId && inShard(p.guildId, shard)) of(p.guildId).pending.add(p.discordUserId);
  return work;
}

/** Whether the valve holds for one guild: too large a share of its in-stay members is absent at once. */
export function valveHolds(valve: SafetyValve, absent: number, inStay: number): boolean {
  if (absent > valve.maxCount) return true;
  return absent >= valve.minCountForShare && absent > inStay * valve.maxShare;
}

export async function reconcile(ctx: AppContext, options: ReconcileOptions = {}): Promise<ReconcileResult> {
  const result: ReconcileResult = {
    verified: 0,
    left: 0,
    notified: 0,
    failed: 0,
    heldBack: 0,
    held: 0,
    paused: 0,
    resumed: 0,
    lookups: newLookupCounters(),
    phaseMs: { lookup: 0, leaves: 0, arrivals: 0 },
  };
  let phaseStart = performance.now();
  const endPhase = (phase: keyof ReconcileResult['phaseMs']): void => {
    const now = performance.now();
    result.phaseMs[phase] = Math.round(now - phaseStart);
    phaseStart = now;
  };
  const startedAt = ctx.clock.now();

  // 0. Where is the bot? Its own guild list pauses and resumes campaigns (a missed GUILD_DELETE or
  //    GUILD_CREATE). If Discord cannot say, campaigns keep their state.
  try {
    const presence = await syncBotPresence(ctx, startedAt, options.shard);
    result.paused = presence.paused;
    result.resumed = presence.resumed;
  } catch (err) {
    ctx.logger.warn('reconcile: could not list the bot guilds', {
      error: errorMessage(err),
    });
  }

  const work = await collectWork(ctx, startedAt, options.shard);
  const paused = await pausedGuildIds(ctx, [...work.keys()]);
  const guilds = [...work.values()].filter((w) => !paused.has(w.guildId));

  // 1. Look every guild up first (paced by @discordjs/rest and the gateway), charging nothing yet:
  //    the safety valve needs the whole run's picture.
  const looked = await lookUpGuilds(ctx, guilds, options, result);
  endPhase('lookup');

  // 2. Safety valve, then 3. leaves first: they may give slots back that the arrivals below can take.
  const { chargeable, runHeld } = await applySafetyValve(ctx, looked, startedAt, result);
  if (!runHeld) await chargeLeaves(ctx, chargeable, options.concurrency ?? 4, result);
  endPhase('leaves');

  // 4. Arrivals in the order they joined Discord (who live events would have given the last slots to).
  await payArrivals(ctx, looked, result);
  endPhase('arrivals');

  // 5. Finished campaigns whose owner has not been told (DMs due for another attempt included).
  result.notified = await notifyPendingCompletions(ctx, options.shard);
  result.held = await refreshHeldGauge(ctx.store.read);
  return result;
}

/** A guild looked up: who of its in-stay and pending members is there (id -> Discord joined_at). */
interface LookedUpGuild {
  w: GuildWork;
  members: Map<string, number>;
  absent: string[];
}

function lookedUp(w: GuildWork, members: Map<string, number>): LookedUpGuild {
  return { w, members, absent: [...w.inStay.keys()].filter((id) => !members.has(id)) };
}

/** Step 1: every guild's members, by the sweep without the intent, else by member-lookup.ts. */
async function lookUpGuilds(
  ctx: AppContext,
  guilds: GuildWork[],
  options: ReconcileOptions,
  result: ReconcileResult,
): Promise<LookedUpGuild[]> {
  const looked: LookedUpGuild[] = [];
  if (options.withoutMembersIntent) {
    const swept = await sweepMembers(ctx, guilds, {
      counters: result.lookups,
      botLookupsPerSecond: options.sweepBotLookupsPerSecond,
    });
    for (const w of guilds) {
      if (swept.failed.has(w.guildId)) {
        result.failed += 1;
        continue;
      }
      looked.push(lookedUp(w, swept.found.get(w.guildId) ?? new Map<string, number>()));
    }
    return looked;
  }
  await inParallel(guilds, options.concurrency ?? 4, async (w) => {
    try {
      const members = await lookUpMembers(ctx, w.guildId, [...new Set([...w.inStay.keys(), ...w.pending])], {
        gateway: options.gateway,
        singleLookupMax: options.singleLookupMax ?? 10,
        counters: result.lookups,
      });
      looked.push(lookedUp(w, members));
    } catch (err) {
      // 10004 included: Discord sends it for a guild the bot has left, and sometimes by mistake (#8445).
      result.failed += 1;
      ctx.logger.warn('reconcile: member lookup failed; guild left for the next run', {
        guildId: w.guildId,
        error: errorMessage(err),
      });
    }
  });
  return looked;
}

/**
 * Step 2, the safety valve: a guild with an unusual share absent, or more absent members in the whole
 * run than RECONCILE_MAX_CHARGES, is charged nothing this run; an ALERT says so, and what it held is
 * recorded (it stays in scope and an operator can review it). Held members found again are released.
 */
async function applySafetyValve(
  ctx: AppContext,
  looked: LookedUpGuild[],
  startedAt: number,
  result: ReconcileResult,
): Promise<{ chargeable: LookedUpGuild[]; runHeld: boolean }> {
  const valve = ctx.config.reconcileSafetyValve;
  // Held members found in the guild again: the hold is lifted.
  for (const { w, members } of looked)
    for (const id of w.held.keys())
      if (members.has(id))
        await resolveHeld(ctx.store, { guildId: w.guildId, discordUserId: id }, 'present', startedAt);
  const heldGuilds: { guildId: string; absent: string[] }[] = [];
  const chargeable = looked.filter(({ w, absent }) => {
    if (!valveHolds(valve, absent.length, w.inStay.size)) return true;
    result.heldBack += 1;
    heldGuilds.push({ guildId: w.guildId, absent });
    ctx.logger.error(
      'ALERT reconcile safety valve: too many members absent at once; nothing charged, waiting for the next run',
      { guildId: w.guildId, absent: absent.length, inStay: w.inStay.size, valve },
    );
    return false;
  });
  const absentInRun = chargeable.reduce((n, g) => n + g.absent.length, 0);
  const runHeld = absentInRun > valve.maxCount;
  if (runHeld) {
    result.heldBack += chargeable.filter((g) => g.absent.length > 0).length;
    for (const g of chargeable)
      if (g.absent.length > 0) heldGuilds.push({ guildId: g.w.guildId, absent: g.absent });
    ctx.logger.error(
      'ALERT reconcile safety valve: too many members absent in this run; nothing charged, waiting for the next run',
      { absent: absentInRun, guilds: chargeable.length, valve },
    );
  }
  for (const g of heldGuilds) await holdAbsent(ctx.store, g.guildId, g.absent, startedAt);
  return { chargeable, runHeld };
}

/** Step 3: the absent members of the guilds the valve let through are settled as removals. */
async function chargeLeaves(
  ctx: AppContext,
  chargeable: LookedUpGuild[],
  concurrency: number,
  result: ReconcileResult,
): Promise<void> {
  await inParallel(
    chargeable.filter((g) => g.absent.length > 0),
    concurrency,
    async ({ w, absent }) => {
      const at = ctx.clock.now();
      const removals: Removal[] = [];
      for (const id of absent) {
        const join = await findOpenPaidJoin(ctx, w.guildId, id); // re-read: an event may have settled it meanwhile
        // A held member's leave is judged at the run that first found it absent.
        if (join) removals.push({ discordUserId: id, at: w.held.get(id) ?? at, since: removalSince(join) });
      }
      try {
        const { settled } = await settleRemovals(ctx, w.guildId, removals, true);
        result.left += settled.size;
        for (const id of w.held.keys())
          if (settled.has(id) || !removals.some((r) => r.discordUserId === id))
            await resolveHeld(
              ctx.store,
              { guildId: w.guildId, discordUserId: id },
              'settled',
              ctx.clock.now(),
            );
      } catch (err) {
        result.failed += 1;
        ctx.logger.warn('reconcile: settling removals failed; guild left for the next run', {
          guildId: w.guildId,
          error: errorMessage(err),
        });
      }
    },
  );
}

/** Step 4: pending members found in their guild are verified, the earliest Discord join first. */
async function payArrivals(ctx: AppContext, looked: LookedUpGuild[], result: ReconcileResult): Promise<void> {
  const arrived: { guildId: string; discordUserId: string; joinedAt: number }[] = [];
  for (const { w, members } of looked) {
    for (const id of w.pending) {
      const joinedAt = members.get(id);
      if (joinedAt !== undefined) arrived.push({ guildId: w.guildId, discordUserId: id, joinedAt });
    }
  }
  arrived.sort((a, b) => (a.joinedAt || 0) - (b.joinedAt || 0));
  for (const { guildId, discordUserId, joinedAt } of arrived) {
    const outcome = await verifyJoin(ctx, {
      guildId,
      discordUserId,
      at: ctx.clock.now(),
      discordJoinedAt: Number.isNaN(joinedAt) ? undefined : joinedAt,
    });
    if (outcome.rewarded) result.verified += 1;
  }
}

/** Runs `work` over `items` with at most `concurrency` at a time. */
async function inParallel<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const queue = [...items];
  const workers = Array.from({ length: Math.max(1, concurrency) }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await work(item);
  });
  await Promise.all(workers);
}

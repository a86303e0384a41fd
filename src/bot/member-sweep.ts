import type { AppContext } from '../context.ts';
import { getAccessToken } from '../auth/oauth-tokens.ts';
import { botRepo } from './bot-repo.ts';
import { PENDING_JOIN_MAX_AGE_MS } from './rules.ts';
import { verifyJoin } from './verify-join.ts';
import type { LookupCounters } from './member-lookup.ts';
import { errorMessage } from '../ops/error-text.ts';

// The member loop without Discord's privileged Server Members intent (issue 26 item 1). Without it
// there are no GUILD_MEMBER_ADD/REMOVE events, no member list and no op-8 member queries; what is left
// needs no intent (discord-api-docs, "You might not need a privileged intent"):
//   - the bot's GET /guilds/{g}/members/{u}: the member with joined_at, or 10007 Unknown Member;
//   - the member's own OAuth token (`guilds` scope): GET /users/@me/guilds, every guild they are in,
//     one call for all their joins (Discord caps a member at 200 guilds, one page);
//   - kicks and bans still arrive through GuildModeration (audit-log events), so removals are told
//     apart exactly as with the intent (member-removed.ts).
//
// Verification: checkMemberJoins looks the member up in the guilds of their pending joins when they
// come back (the web app on focus, a slash command) and verifyJoin decides as the gateway path does
// (joined_at before the website join: pre-existing, nothing paid). Background: reconciliation runs
// sweepMembers instead of its per-guild lookups, every MEMBER_SWEEP_SECONDS, and charges absent
// in-stay members through the same safety valve and audit-log reads.

/** Pending joins checked at most per call (the newest first): a person waits for these. */
export const CHECK_MAX_GUILDS = 10;
/** A member's check is done at most this often (a window regaining focus repeatedly, a double command). */
export const CHECK_MIN_INTERVAL_MS = 3_000;
/** How long a person waits for the check at most; what is not done by then finishes in the background. */
export const CHECK_BUDGET_MS = 2_000;
/** Slash commands: Discord wants an answer (or a deferral) within 3 s; the check gets part of it. */
export const COMMAND_CHECK = { budgetMs: 1_500 } as const;

export interface MemberCheckResult {
  /** Guilds looked up. */
  checked: number;
  /** Joins paid by this check. */
  verified: { campaignId: string; name: string; cents: number }[];
  /** The check was skipped: the same member was checked moments ago. */
  throttled: boolean;
}

const lastCheck = new Map<string, number>();

/**
 * Looks the member up in every guild where they have a pending bot-campaign join (bot
 * GET /guilds/{g}/members/{u}; no intent needed) and verifies those they are in now. Answers within
 * CHECK_BUDGET_MS; look-ups still running then complete in the background (verification is
 * exactly-once, so nothing is lost or doubled).
 */
export async function checkMemberJoins(
  ctx: AppContext,
  member: { userId: string; discordUserId: string },
  options: { budgetMs?: number } = {},
): Promise<MemberCheckResult> {
  const result: MemberCheckResult = { checked: 0, verified: [], throttled: false };
  const now = ctx.clock.now();
  const nowReal = Date.now();
  const last = lastCheck.get(member.userId);
  if (last !== undefined && nowReal - last < CHECK_MIN_INTERVAL_MS) return { ...result, throttled: true };
  lastCheck.set(member.userId, nowReal);
  if (lastCheck.size > 50_000) pruneChecks(nowReal);

  const guildIds = (
    await botRepo(ctx.store.read).listPendingGuildsOfMember(member.userId, now - PENDING_JOIN_MAX_AGE_MS)
  ).slice(0, CHECK_MAX_GUILDS);
  if (guildIds.length === 0) return result;
  const work = Promise.all(
    guildIds.map(async (guildId) => {
      try {
        const found = await ctx.discord.getGuildMember(guildId, member.discordUserId);
        result.checked += 1;
        if (!found) return;
        const outcome = await verifyJoin(ctx, {
          guildId,
          discordUserId: member.discordUserId,
          at: ctx.clock.now(),
          discordJoinedAt: joinedAtMs(found.joined_at),
        });
        if (outcome.rewarded) {
          const { campaignId, name, cents } = outcome.rewarded;
          result.verified.push({ campaignId, name, cents });
        }
      } catch (err) {
        ctx.logger.warn('join check: member look-up failed; the sweep will try again', {
          guildId,
          error: errorMessage(err),
        });
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, options.budgetMs ?? CHECK_BUDGET_MS);
  });
  await Promise.race([work, budget]).finally(() => clearTimeout(timer));
  return result;
}

function pruneChecks(now: number): void {
  for (const [id, at] of lastCheck) if (now - at >= CHECK_MIN_INTERVAL_MS) lastCheck.delete(id);
}

export function joinedAtMs(joinedAt: string | null | undefined): number | undefined {
  const ms = Date.parse(joinedAt ?? '');
  return Number.isNaN(ms) ? undefined : ms;
}

// ------------------------------------------------------------------ the sweep (reconciliation)

/** One guild's open joins, as reconciliation collects them. */
export interface SweepGuild {
  guildId: string;
  /** Paid members inside their stay (Discord user ids). */
  inStay: Map<string, unknown>;
  /** Discord user ids with a pending website join. */
  pending: Set<string>;
}

export interface SweepOptions {
  counters: LookupCounters;
  /** Members looked at in parallel. */
  concurrency?: number;
  /**
   * The pace of the sweep's member look-ups, at most the bot's 50 requests a second (Discord's global
   * limit). People's calls need no share kept for them: the port's global limit serves them first
   * and gives the sweep what they leave (decision 037).
   */
  botLookupsPerSecond?: number;
}

export interface SweepResult {
  /** Per guild: the wanted members found in it now, with joined_at (NaN when only their guild list said so). */
  found: Map<string, Map<string, number>>;
  /** Guilds where a look-up failed: nothing is concluded about them this run. */
  failed: Set<string>;
}

export const DEFAULT_SWEEP_BOT_LOOKUPS_PER_SECOND = 50;

/**
 * Which members with open joins are in their guilds now, for reconciliation without the intent. Per
 * member: one call for their guild list with their own token (every guild at once); then bot look-ups
 * only where the list is not enough — joined_at of an arrival (pre-existing or not), and confirming an
 * in-stay member the list no longer shows before anything is charged. A member without a usable token
 * is looked up by the bot guild by guild.
 */
export async function sweepMembers(
  ctx: AppContext,
  guilds: SweepGuild[],
  options: SweepOptions,
): Promise<SweepResult> {
  const result: SweepResult = { found: new Map(), failed: new Set() };
  // Member → the guilds we want to know about.
  const byMember = new Map<string, { inStay: Set<string>; pending: Set<string> }>();
  const of = (id: string) => {
    let m = byMember.get(id);
    if (!m) byMember.set(id, (m = { inStay: new Set(), pending: new Set() }));
    return m;
  };
  for (const g of guilds) {
    result.found.set(g.guildId, new Map());
    for (const id of g.inStay.keys()) of(id).inStay.add(g.guildId);
    for (const id of g.pending) of(id).pending.add(g.guildId);
  }
  const pace = pacer(options.botLookupsPerSecond ?? DEFAULT_SWEEP_BOT_LOOKUPS_PER_SECOND);
  const { counters } = options;

  const lookUp = async (guildId: string, discordUserId: string): Promise<void> => {
    if (result.failed.has(guildId)) return;
    await pace();
    counters.single += 1;
    try {
      const member = await ctx.discord.getGuildMember(guildId, discordUserId);
      if (member) result.found.get(guildId)?.set(discordUserId, joinedAtMs(member.joined_at) ?? Number.NaN);
    } catch (err) {
      if (!result.failed.has(guildId))
        ctx.logger.warn('member sweep: look-up failed; guild left for the next run', {
          guildId,
          error: errorMessage(err),
        });
      result.failed.add(guildId);
    }
  };

  const guildListOf = async (discordUserId: string): Promise<Set<string> | null> => {
    const userId = await botRepo(ctx.store.read).findUserIdByDiscordId(discordUserId);
    if (!userId) return null;
    try {
      const token = await getAccessToken(ctx, userId);
      counters.memberLists += 1;
      return new Set((await ctx.discord.getCurrentUserGuilds(token)).map((g) => g.id));
    } catch {
      // No token, revoked, or Discord said no: the bot looks this member up instead.
      counters.memberListFallbacks += 1;
      return null;
    }
  };

  const sweepOne = async (discordUserId: string): Promise<void> => {
    const wanted = byMember.get(discordUserId)!;
    const list = await guildListOf(discordUserId);
    const all = new Set([...wanted.pending, ...wanted.inStay]);
    for (const guildId of all) {
      if (list === null) {
        await lookUp(guildId, discordUserId);
      } else if (list.has(guildId)) {
        // Present. An arrival needs joined_at (was the member there before the website join?).
        if (wanted.pending.has(guildId)) await lookUp(guildId, discordUserId);
        else result.found.get(guildId)?.set(discordUserId, Number.NaN);
      } else if (wanted.inStay.has(guildId)) {
        // Gone from their list: the bot confirms before anything is charged.
        await lookUp(guildId, discordUserId);
      }
    }
  };

  const members = [...byMember.keys()];
  const workers = Array.from({ length: Math.max(1, options.concurrency ?? 8) }, async () => {
    for (let id = members.shift(); id !== undefined; id = members.shift()) await sweepOne(id);
  });
  await Promise.all(workers);
  return result;
}

/** At most `perSecond` starts a second, evenly spaced. */
function pacer(perSecond: number): () => Promise<void> {
  const interval = 1000 / Math.max(1, perSecond);
  let next = 0;
  return async () => {
    const now = performance.now();
    const at = Math.max(now, next);
    next = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
}

import type { AppContext } from '../context.ts';
import { AUDIT_LOG_ACTION, DiscordApiError, snowflakeCreatedAt } from '../discord/discord-api.ts';
import { AUDIT_CLOCK_SKEW_MS, MODERATION_AFTER_REMOVAL_MS, type LeaveReason } from './rules.ts';
import { recordLeave } from './record-leave.ts';
import { botRepo } from './bot-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

// GUILD_MEMBER_REMOVE is `{guild_id, user}` — the same for a leave, a kick and a ban. What tells them
// apart, best first:
//   1. GUILD_AUDIT_LOG_ENTRY_CREATE / GUILD_BAN_ADD (GuildModeration intent, not privileged), kept in
//      a short in-memory log per guild;
//   2. the audit-log REST call (View Audit Log), read once per *batch* of removals of a guild, not once
//      per removal, so a raid or a mass leave costs a few requests and never holds up arrivals;
//   3. nothing: when the audit log cannot be read, the reason is `unknown` — no penalty and no slot
//      back (fail safe for the member, never in the owner's favour).
// A prune (action 21) has no target, only a count: removals it may explain count as kicks.
// An entry excuses only a removal *newer* than the membership it ends: it must be younger than the
// Discord joined_at of the join (issue 12 "kick window"), and no later than the removal itself
// (MODERATION_AFTER_REMOVAL_MS; decision 042): a ban written after a leave does not make it a ban.

/** Moderation facts learned from the gateway, kept ten minutes. */
export interface ModerationFact {
  action: 'kick' | 'ban' | 'prune';
  /** null for a prune. */
  userId: string | null;
  /** Discord time of the action (entry snowflake, or receipt of GUILD_BAN_ADD). */
  at: number;
}

const FACT_TTL_MS = 10 * 60 * 1000;

const ACTION_KIND = new Map<number, ModerationFact['action']>([
  [AUDIT_LOG_ACTION.MEMBER_KICK, 'kick'],
  [AUDIT_LOG_ACTION.MEMBER_PRUNE, 'prune'],
  [AUDIT_LOG_ACTION.MEMBER_BAN_ADD, 'ban'],
]);
const logs = new WeakMap<AppContext, Map<string, ModerationFact[]>>();

function guildFacts(ctx: AppContext, guildId: string): ModerationFact[] {
  let byGuild = logs.get(ctx);
  if (!byGuild) logs.set(ctx, (byGuild = new Map<string, ModerationFact[]>()));
  let facts = byGuild.get(guildId);
  if (!facts) byGuild.set(guildId, (facts = []));
  return facts;
}

/** Remembers a kick / ban / prune seen on the gateway. */
export function recordModerationFact(ctx: AppContext, guildId: string, fact: ModerationFact): void {
  const facts = guildFacts(ctx, guildId);
  const cutoff = Date.now() - FACT_TTL_MS;
  while (facts.length > 0 && (facts[0]?.at ?? 0) < cutoff) facts.shift();
  facts.push(fact);
}

/** GUILD_AUDIT_LOG_ENTRY_CREATE: kicks, bans and prunes matter here. */
export function recordAuditEntry(
  ctx: AppContext,
  guildId: string,
  entry: { id: string; action_type: number; target_id: string | null },
): void {
  const kind = ACTION_KIND.get(entry.action_type);
  if (!kind || (kind !== 'prune' && !entry.target_id)) return;
  recordModerationFact(ctx, guildId, {
    action: kind,
    userId: kind === 'prune' ? null : entry.target_id,
    at: snowflakeCreatedAt(entry.id),
  });
}

/** The member's paid, still-present joins of this guild: when the oldest was verified, and its Discord joined_at. */
export function findOpenPaidJoin(
  ctx: AppContext,
  guildId: string,
  discordUserId: string,
): Promise<{ verifiedAt: number; discordJoinedAt: number | null } | null> {
  return botRepo(ctx.store.read).findOpenPaidJoin(discordUserId, guildId);
}

export interface Removal {
  discordUserId: string;
  /** When we learned of it (ctx.clock). */
  at: number;
  /** Entries must be newer than this (Discord time): the membership's joined_at, else verification. */
  since: number;
  /**
   * When the bot received the removal, by the wall clock (Discord's time domain): entries must not be
   * later than this + MODERATION_AFTER_REMOVAL_MS. Absent: no upper bound (callers that cannot tell).
   */
  discordAt?: number;
}

/** Whether a moderation fact stamped at `at` can be the cause of this removal (order of events). */
export function factPrecedesRemoval(at: number, removal: Pick<Removal, 'since' | 'discordAt'>): boolean {
  if (at <= removal.since) return false;
  return removal.discordAt === undefined || at <= removal.discordAt + MODERATION_AFTER_REMOVAL_MS;
}

/** The moment from which an audit entry can be about the membership this join ended. */
export function removalSince(join: { verifiedAt: number; discordJoinedAt: number | null }): number {
  return join.discordJoinedAt ?? join.verifiedAt - AUDIT_CLOCK_SKEW_MS;
}

/** What the moderation facts say about one removal; null when they say nothing. */
function reasonFromFacts(facts: ModerationFact[], removal: Removal): LeaveReason | null {
  let reason: LeaveReason | null = null;
  for (const f of facts) {
    if (!factPrecedesRemoval(f.at, removal)) continue;
    if (f.action === 'ban' && f.userId === removal.discordUserId) return 'ban';
    if (f.action === 'kick' && f.userId === removal.discordUserId) reason = 'kick';
    if (f.action === 'prune' && reason === null) reason = 'kick';
  }
  return reason;
}

/** After a 403 on a guild's audit log, it is not asked again for this long (invalid requests). */
const UNREADABLE_AUDIT_LOG_MS = 10 * 60 * 1000;
const unreadableLogs = new WeakMap<AppContext, Map<string, number>>();

function unreadableAuditLogs(ctx: AppContext): Map<string, number> {
  let map = unreadableLogs.get(ctx);
  if (!map) unreadableLogs.set(ctx, (map = new Map<string, number>()));
  return map;
}

/** Audit-log pages (100 entries each) read for one batch at most. */
const MAX_AUDIT_PAGES = 5;

/**
 * Reads kicks, bans and prunes newer than `since` from the audit log: one request for the newest 100
 * entries of any kind (so one call covers all three actions), paged back with `before` while the page
 * is full and still newer than `since`. Throws when the audit log cannot be read.
 */
async function readAuditFacts(ctx: AppContext, guildId: string, since: number): Promise<ModerationFact[]> {
  const facts: ModerationFact[] = [];
  let before: string | undefined;
  for (let page = 0; page < MAX_AUDIT_PAGES; page++) {
    const entries = await ctx.discord.getAuditLog(guildId, { before, limit: 100 });
    let oldest: string | undefined;
    for (const e of entries) {
      if (oldest === undefined || BigInt(e.id) < BigInt(oldest)) oldest = e.id;
      const kind = ACTION_KIND.get(e.action_type);
      if (!kind) continue;
      facts.push({
        action: kind,
        userId: kind === 'prune' ? null : (e.target_id ?? null),
        at: snowflakeCreatedAt(e.id),
      });
    }
    if (entries.length < 100 || oldest === undefined || snowflakeCreatedAt(oldest) <= since) break;
    before = oldest;
  }
  return facts;
}

/**
 * Decides why each removal of one guild happened, with one audit-log read for the whole batch.
 * `final` is the last look: what is still unexplained then is a voluntary leave (if the audit log was
 * readable) or unknown (if it was not). Not final: unexplained removals are returned as null, for a
 * second look later (audit entries can be written after the removal event).
 */
export async function classifyRemovals(
  ctx: AppContext,
  guildId: string,
  removals: Removal[],
  final: boolean,
): Promise<Map<string, LeaveReason | null>> {
  const out = new Map<string, LeaveReason | null>();
  const facts = guildFacts(ctx, guildId);
  const unexplained: Removal[] = [];
  for (const r of removals) {
    const reason = reasonFromFacts(facts, r);
    if (reason) out.set(r.discordUserId, reason);
    else unexplained.push(r);
  }
  if (unexplained.length === 0) return out;
  let restFacts: ModerationFact[] | null = null;
  const unreadable = unreadableAuditLogs(ctx);
  const unreadableUntil = unreadable.get(guildId) ?? 0;
  // A guild known to answer 403 is not asked again for a while: each 403 counts toward Discord's
  // invalid-request ban, and the answer would be the same.
  if (unreadableUntil <= ctx.clock.now()) {
    try {
      restFacts = await readAuditFacts(ctx, guildId, Math.min(...unexplained.map((r) => r.since)));
      unreadable.delete(guildId);
    } catch (err) {
      if (err instanceof DiscordApiError && (err.status === 403 || err.status === 401))
        unreadable.set(guildId, ctx.clock.now() + UNREADABLE_AUDIT_LOG_MS);
      ctx.logger.warn('audit log unreadable; removals without a known reason are not charged', {
        guildId,
        removals: unexplained.length,
        error: errorMessage(err),
      });
    }
  }
  for (const r of unexplained) {
    // Gateway facts again: a GUILD_BAN_ADD or audit entry may have arrived during the REST read.
    const reason = reasonFromFacts(facts, r) ?? (restFacts ? reasonFromFacts(restFacts, r) : null);
    if (reason) out.set(r.discordUserId, reason);
    else if (!final) out.set(r.discordUserId, null);
    else out.set(r.discordUserId, restFacts ? 'leave' : 'unknown');
  }
  return out;
}

/** Classifies and records a batch of removals of one guild; returns those recorded with their reason. */
export async function settleRemovals(
  ctx: AppContext,
  guildId: string,
  removals: Removal[],
  final = true,
): Promise<{ settled: Map<string, LeaveReason>; deferred: Removal[] }> {
  const reasons = await classifyRemovals(ctx, guildId, removals, final);
  const settled = new Map<string, LeaveReason>();
  const deferred: Removal[] = [];
  for (const r of removals) {
    const reason = reasons.get(r.discordUserId);
    if (!reason) {
      deferred.push(r);
      continue;
    }
    await recordLeave(ctx, {
      guildId,
      discordUserId: r.discordUserId,
      at: r.at,
      reason,
      ...(r.discordAt !== undefined ? { discordAt: r.discordAt } : {}),
    });
    settled.set(r.discordUserId, reason);
  }
  return { settled, deferred };
}

import type { AppContext } from '../context.ts';
import { MEMBER_PAGE_SIZE } from '../discord/discord-api.ts';
import { errorMessage } from '../ops/error-text.ts';

// "Which of these users are in this guild now, and since when?" — asked by reconciliation for every
// guild with open joins. Discord offers three ways, each with its own cost:
//   - REST GET /guilds/{id}/members/{user}: one request per user (bucket per guild, global 50/s);
//   - REST GET /guilds/{id}/members?limit=1000&after=: one request per 1,000 members of the guild
//     (only the id range between the smallest and largest wanted id is read);
//   - gateway Request Guild Members (op 8) with up to 100 user_ids: no REST request at all, one
//     gateway send per 100 users (a shard may send 120 payloads a minute, heartbeats included;
//     discord.js paces that). Discord's 2025 op-8 limit (1 per guild per 30 s) is for *all-member*
//     requests only; user_ids requests are not under it.
// The cheapest is picked per guild: a few users are looked up one by one, a guild is read as a list,
// and only a large guild (more pages than GATEWAY_SEND_COST per op-8 send) is asked over the gateway.

/** The bot's gateway, as reconciliation sees it (bot.ts implements it with discord.js). */
export interface GatewayMembers {
  /** The guild's member count when the guild is on a connected shard; null when the gateway cannot ask. */
  memberCount(guildId: string): number | null;
  /** Op 8 with these user_ids (≤ 100): the members found, with joined_at (ms). Throws on timeout. */
  fetchMembers(guildId: string, userIds: string[]): Promise<Map<string, number>>;
}

/** User ids per op-8 request (Discord's maximum). */
export const GATEWAY_MEMBER_BATCH = 100;

/**
 * REST requests one gateway send is worth. A shard may send about 2 payloads a second, the bot token
 * 50 REST requests a second — but REST requests share that global limit with the web app's join-time
 * member checks, and gateway sends do not. So a guild goes over the gateway once reading it over REST
 * would take more than this many requests per send.
 */
export const GATEWAY_SEND_COST = 10;

export interface LookupCounters {
  /** REST requests for single members. */
  single: number;
  /** REST member-list pages. */
  pages: number;
  /** Gateway Request Guild Members sends. */
  gateway: number;
  /** Gateway lookups that failed and were done over REST instead. */
  gatewayFallbacks: number;
  /** Without the intent: members' own guild lists read (GET /users/@me/guilds with their token). */
  memberLists: number;
  /** Without the intent: members without a usable token, looked up by the bot instead. */
  memberListFallbacks: number;
}

export function newLookupCounters(): LookupCounters {
  return { single: 0, pages: 0, gateway: 0, gatewayFallbacks: 0, memberLists: 0, memberListFallbacks: 0 };
}

export interface LookupOptions {
  gateway?: GatewayMembers;
  /** Without a known member count: up to this many users are looked up one by one, more → the list. */
  singleLookupMax: number;
  counters: LookupCounters;
}

/** Which of `userIds` are members of the guild now, with their joined_at; throws when Discord cannot say. */
export async function lookUpMembers(
  ctx: AppContext,
  guildId: string,
  userIds: string[],
  options: LookupOptions,
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const memberCount = options.gateway?.memberCount(guildId) ?? null;
  const gatewaySends = Math.ceil(userIds.length / GATEWAY_MEMBER_BATCH);
  // Up to this many users are looked up one by one; more, and the guild's member list is read.
  let singleLookupMax = options.singleLookupMax;
  if (memberCount !== null && options.gateway) {
    const listPages = Math.max(1, Math.ceil(memberCount / MEMBER_PAGE_SIZE));
    const restCost = Math.min(userIds.length, listPages);
    if (gatewaySends * GATEWAY_SEND_COST < restCost) {
      try {
        return await viaGateway(options.gateway, guildId, userIds, options.counters);
      } catch (err) {
        options.counters.gatewayFallbacks += 1;
        ctx.logger.warn('reconcile: gateway member request failed; asking over REST', {
          guildId,
          error: errorMessage(err),
        });
      }
    }
    singleLookupMax = listPages;
  }
  return userIds.length <= singleLookupMax
    ? viaSingleLookups(ctx, guildId, userIds, options.counters)
    : viaMemberList(ctx, guildId, userIds, options.counters);
}

async function viaGateway(
  gateway: GatewayMembers,
  guildId: string,
  userIds: string[],
  counters: LookupCounters,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < userIds.length; i += GATEWAY_MEMBER_BATCH) {
    counters.gateway += 1;
    const part = await gateway.fetchMembers(guildId, userIds.slice(i, i + GATEWAY_MEMBER_BATCH));
    for (const [id, joinedAt] of part) found.set(id, joinedAt);
  }
  return found;
}

async function viaSingleLookups(
  ctx: AppContext,
  guildId: string,
  userIds: string[],
  counters: LookupCounters,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const id of userIds) {
    counters.single += 1;
    const member = await ctx.discord.getGuildMember(guildId, id);
    if (member) found.set(id, Date.parse(member.joined_at ?? ''));
  }
  return found;
}

async function viaMemberList(
  ctx: AppContext,
  guildId: string,
  userIds: string[],
  counters: LookupCounters,
): Promise<Map<string, number>> {
  // Member list pages are sorted by user id: start just below the smallest id wanted and stop once
  // past the largest, so only the needed range is read.
  const found = new Map<string, number>();
  const sorted = userIds.map((id) => BigInt(id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const wanted = new Set(userIds);
  const last = sorted.at(-1) ?? 0n;
  let after = ((sorted[0] ?? 1n) - 1n).toString();
  for (;;) {
    counters.pages += 1;
    const page = await ctx.discord.listGuildMembers(guildId, after, MEMBER_PAGE_SIZE);
    for (const m of page) {
      if (m.user && wanted.has(m.user.id)) found.set(m.user.id, Date.parse(m.joined_at ?? ''));
    }
    const tail = page.at(-1)?.user?.id;
    if (page.length < MEMBER_PAGE_SIZE || !tail || BigInt(tail) >= last) return found;
    after = tail;
  }
}

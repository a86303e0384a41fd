import type { AppContext } from '../context.ts';
import type { DbHandle } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { listUserGuilds } from '../auth/user-guilds.ts';
import { getAccessToken } from '../auth/oauth-tokens.ts';
import { joinsRepo } from './joins-repo.ts';
import { listMyJoins } from './list-my-joins.ts';
import {
  DISCORD_GUILD_CAP,
  guildCapFor,
  guildCapMessage,
  joinPaceMessage,
} from '../shared/join-constants.ts';
import type { ApiJoinPace } from '../shared/api-types.ts';
import { errorMessage } from '../ops/error-text.ts';

// Members' Discord accounts (decision 038). Discord "takes action against accounts that join servers
// too frequently" and refuses a join past 100 servers (200 with Nitro), so the product paces each
// member's joins (JOIN_PACE_PER_HOUR / JOIN_PACE_PER_DAY, website and /farm alike) and reads the
// member's guild list before a join. The guild list is stored (member_guilds) for Discover and /farm,
// which leave out servers the member is already in.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** How long until the member may join another server; 0 = now. `daily`: the day's limit is the one in the way. */
export interface PaceWait {
  waitMs: number;
  daily: boolean;
  joinsLastHour: number;
  joinsLastDay: number;
}

/**
 * The pace of the member's joins of campaigns other than `campaignId` (a retry of the same join does
 * not count twice). Rolling windows: with N joins allowed an hour, the next is allowed an hour after
 * the N-th most recent one.
 */
export async function paceWait(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  h: DbHandle,
  userId: string,
  campaignId = '',
): Promise<PaceWait> {
  const { perHour, perDay } = ctx.config.joinPace;
  const now = ctx.clock.now();
  // Both windows are open at their far end: a join exactly a day (an hour) ago no longer counts.
  const times = (await joinsRepo(h).joinTimesSince(userId, now - DAY_MS, campaignId)).filter(
    (t) => t > now - DAY_MS,
  );
  const lastHour = times.filter((t) => t > now - HOUR_MS);
  let waitMs = 0;
  let daily = false;
  if (perHour > 0 && lastHour.length >= perHour) {
    waitMs = lastHour[lastHour.length - perHour]! + HOUR_MS - now;
  }
  if (perDay > 0 && times.length >= perDay) {
    const dayWait = times[times.length - perDay]! + DAY_MS - now;
    if (dayWait > waitMs) {
      waitMs = dayWait;
      daily = true;
    }
  }
  return { waitMs: Math.max(0, waitMs), daily, joinsLastHour: lastHour.length, joinsLastDay: times.length };
}

/** An AppError 429 carrying the seconds to wait (the API sends them as Retry-After). */
export class JoinPaceError extends AppError {
  constructor(
    message: string,
    override readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/** Refuses (429, Retry-After) a join over the member's pace; `h` inside the join's transaction decides. */
export async function requireJoinPace(
  ctx: Pick<AppContext, 'config' | 'clock'>,
  h: DbHandle,
  userId: string,
  campaignId: string,
): Promise<void> {
  const wait = await paceWait(ctx, h, userId, campaignId);
  if (wait.waitMs <= 0) return;
  throw new JoinPaceError(
    joinPaceMessage(wait.waitMs, ctx.config.joinPace, wait.daily),
    Math.ceil(wait.waitMs / 1000),
  );
}

/** The member's guild ids, read now from Discord with their token and stored for Discover. */
export async function refreshMemberGuilds(ctx: AppContext, userId: string): Promise<string[]> {
  const guilds = await listUserGuilds(ctx, userId);
  const ids = guilds.map((g) => g.id);
  await ctx.store.transaction((tx) =>
    joinsRepo(tx).saveMemberGuilds(userId, ids, undefined, ctx.clock.now()),
  );
  return ids;
}

/**
 * Refuses a join that would pass Discord's server cap: the member is in `guildCount` servers. Nitro
 * (premium_type 2) raises the cap to 200; `premium_type` is read from GET /users/@me only when the
 * count reaches the lower cap (and stored with the guild list for GET /api/joins/pace).
 */
export async function requireGuildRoom(ctx: AppContext, userId: string, guildCount: number): Promise<void> {
  if (guildCount < DISCORD_GUILD_CAP) return;
  // Read each time the count is at the lower cap (rare, and Nitro comes and goes); stored for the pace card.
  let premiumType: number | null = null;
  try {
    const me = await ctx.discord.getCurrentUser(await getAccessToken(ctx, userId));
    premiumType = me.premium_type ?? 0;
    const known = premiumType;
    await ctx.store.transaction(async (tx) => {
      const stored = await joinsRepo(tx).findMemberGuilds(userId);
      await joinsRepo(tx).saveMemberGuilds(userId, stored?.guildIds ?? [], known, ctx.clock.now());
    });
  } catch (err) {
    // Not knowing whether the member has Nitro: the lower cap, which Discord applies to most accounts.
    ctx.logger.warn('join: could not read premium_type', {
      userId,
      error: errorMessage(err),
    });
  }
  const cap = guildCapFor(premiumType);
  if (guildCount < cap) return;
  const leavable = (await listMyJoins(ctx, userId))
    .filter((j) => j.state === 'stayed')
    .map((j) => j.serverName);
  throw new AppError('conflict', guildCapMessage(cap, leavable));
}

/** GET /api/joins/pace: when the next join is allowed, and the member's server count as last read. */
export async function joinPaceOf(ctx: AppContext, userId: string): Promise<ApiJoinPace> {
  const read = ctx.store.read;
  const [wait, guilds] = await Promise.all([
    paceWait(ctx, read, userId),
    joinsRepo(read).findMemberGuilds(userId),
  ]);
  const now = ctx.clock.now();
  return {
    nextJoinAt: wait.waitMs > 0 ? new Date(now + wait.waitMs).toISOString() : null,
    waitSeconds: Math.ceil(wait.waitMs / 1000),
    perHour: ctx.config.joinPace.perHour,
    perDay: ctx.config.joinPace.perDay,
    joinsLastHour: wait.joinsLastHour,
    joinsLastDay: wait.joinsLastDay,
    guildCount: guilds ? guilds.guildIds.length : null,
    guildCap: guildCapFor(guilds?.premiumType),
  };
}

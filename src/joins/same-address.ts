import { createHmac } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { autocommitHandle, type DbHandle } from '../db/engine.ts';
import { joinsRepo } from './joins-repo.ts';

// The same-address rule (decision 022). An owner's own alts sign in from the owner's connection, so a
// campaign pays at most a few joins (SAME_ADDRESS_MAX_PAID_JOINS, default 3) of members who used an
// address the owner also used within the window (SAME_ADDRESS_WINDOW_DAYS, default 7). A cap rather
// than a ban: a household or a campus behind one address can still join a friend's server, while an
// alt funnel cannot fill a campaign. Addresses are kept only as keyed hashes and only for the window.

export interface SameAddressRule {
  windowMs: number;
  maxPaidJoins: number;
  hashKey: Buffer;
}

/**
 * A keyed hash of an address as the rate limits see it (src/http/write-limits.ts addressKey: IPv4 as
 * is, IPv6 by its /56 network, so one home's rotating IPv6 addresses count as one).
 */
export function hashAddress(key: Buffer, address: string): string {
  return createHmac('sha256', key).update(address).digest('base64url');
}

/**
 * Remembers that the user acted from this address now, and forgets their addresses older than the
 * window (one store transaction). Callers on a request path log a failure rather than fail the request.
 */
export async function recordUserAddress(
  ctx: Pick<AppContext, 'config' | 'clock' | 'store'>,
  userId: string,
  address: string,
): Promise<void> {
  const rule = ctx.config.sameAddress;
  if (rule.windowMs <= 0) return;
  const addressHash = hashAddress(rule.hashKey, address);
  const now = ctx.clock.now();
  // A signed-in write's first step (src/http/write-limits.ts): on PostgreSQL one statement on the pool
  // (decision 062, session 17); on SQLite group-committed like the claim it precedes.
  const single = autocommitHandle(ctx.store);
  if (single) return joinsRepo(single).recordAddressAlone(userId, addressHash, now, now - rule.windowMs);
  await ctx.store.groupTransaction((tx) =>
    joinsRepo(tx).recordAddress(userId, addressHash, now, now - rule.windowMs),
  );
}

/** Retention: every address hash older than the window goes (a periodic job); how many went. */
export async function pruneUserAddresses(
  ctx: Pick<AppContext, 'config' | 'clock' | 'store'>,
): Promise<number> {
  const { windowMs } = ctx.config.sameAddress;
  // With the rule off nothing is recorded; anything left from before goes after a day.
  const keepMs = windowMs > 0 ? windowMs : 86_400_000;
  const before = ctx.clock.now() - keepMs;
  return ctx.store.transaction((tx) => joinsRepo(tx).pruneAddresses(before));
}

/**
 * The rule for one member and campaign: `shared` when they share an address with the owner, and
 * `capped` when such a join can no longer be paid (the campaign already paid the maximum of them).
 * Inside a transaction that pays a join, call it after taking the campaign's slot: on PostgreSQL that
 * UPDATE holds the campaign row, so concurrent payers of one campaign count each other's joins.
 */
export async function checkSameAddress(
  h: DbHandle,
  rule: SameAddressRule,
  input: { memberId: string; ownerId: string; campaignId: string; now: number },
): Promise<{ shared: boolean; capped: boolean }> {
  if (rule.windowMs <= 0 || input.memberId === input.ownerId) return { shared: false, capped: false };
  const repo = joinsRepo(h);
  const shared = await repo.sharesAddressWithOwner(input.memberId, input.ownerId, input.now - rule.windowMs);
  if (!shared) return { shared, capped: false };
  return { shared, capped: (await repo.paidSameAddressJoins(input.campaignId)) >= rule.maxPaidJoins };
}

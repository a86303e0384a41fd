import type { DbHandle } from '../db/engine.ts';
import type { Server, ServerJoin } from '../db/schema.ts';
import { SqliteJoinsRepository } from './joins-repo.sqlite.ts';
import { PgJoinsRepository } from './joins-repo.pg.ts';
import type { MemberGuilds } from './member-guilds.ts';

// Joins (decision 028 step 2D, the guide in decision 034): what the website's join, the no-bot claim,
// My Joins and the same-address rule need from the database, as one async interface with a SQLite and
// a PostgreSQL implementation, held together by joins-repo.test.ts on both engines. Slots are taken
// by a conditional UPDATE (`members_remaining > 0`); a join is one row per (user, campaign) by its
// unique index and is paid once (`coins_awarded = false` in the UPDATE, and the ledger's key).
// Discover's in-memory list has its own per-engine readers (discover-list.sqlite.ts, .pg.ts).

/** The terms a paid no-bot join is frozen with. */
export interface NoBotClaimTerms {
  now: number;
  rewardCents: number;
  sameAddress: boolean;
}

export interface JoinsRepository {
  findCampaign(id: string): Promise<Server | undefined>;
  findJoin(userId: string, campaignId: string): Promise<ServerJoin | undefined>;
  /** Inserts a pending join; false when the member has a join of this campaign already. */
  insertPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean>;
  /** Restarts the clock of a join that never completed (pending or expired); false when it completed. */
  restartPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean>;
  /** Takes one slot of a campaign that has one and is not canceled; false when none is left. */
  takeSlot(campaignId: string): Promise<boolean>;
  /** Marks a no-bot join paid, with its frozen terms; false when it was paid already. */
  markNoBotClaimed(joinId: string, terms: NoBotClaimTerms): Promise<boolean>;
  /** Saves the guild a no-bot campaign's invite leads to (campaigns listed before it was stored). */
  setInviteGuildId(campaignId: string, guildId: string): Promise<void>;
  /** The member's joins with their campaigns, newest first. */
  listJoinsWithCampaigns(userId: string): Promise<{ join: ServerJoin; server: Server }[]>;
  /** Whether member and owner both used one address at or after `since`. */
  sharesAddressWithOwner(memberId: string, ownerId: string, since: number): Promise<boolean>;
  /** Paid joins of the campaign from members who shared an address with its owner. */
  paidSameAddressJoins(campaignId: string): Promise<number>;
  /**
   * The member acted from this address (a keyed hash) at `now`: its last-seen time moves forward (never
   * back), and the member's addresses last seen before `forgetBefore` go.
   */
  recordAddress(userId: string, addressHash: string, now: number, forgetBefore: number): Promise<void>;
  /** Retention: every address hash last seen before `before` goes; how many went. */
  pruneAddresses(before: number): Promise<number>;
  /**
   * Holds the member's joins until the transaction ends, so concurrent joins of one member are paced one
   * after the other (PostgreSQL: the member's users row FOR UPDATE; SQLite's transactions already run
   * one at a time).
   */
  lockMember(userId: string): Promise<void>;
  /** When the member's joins of other campaigns than `exceptCampaignId` were asked for, at or after `since`, oldest first. */
  joinTimesSince(userId: string, since: number, exceptCampaignId: string): Promise<number[]>;
  /** The member's Discord guild list as last read (member_guilds), or undefined. */
  findMemberGuilds(userId: string): Promise<MemberGuilds | undefined>;
  /** Stores the member's guild list; `premiumType` undefined keeps the stored one. */
  saveMemberGuilds(
    userId: string,
    guildIds: readonly string[],
    premiumType: number | undefined,
    now: number,
  ): Promise<void>;
}

export function joinsRepo(h: DbHandle): JoinsRepository {
  return h.kind === 'sqlite' ? new SqliteJoinsRepository(h.db) : new PgJoinsRepository(h.db);
}

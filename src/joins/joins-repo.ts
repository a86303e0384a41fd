import type { DbHandle } from '../db/engine.ts';
import { and, asc, count, desc, eq, gt, gte, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import {
  memberGuilds,
  campaignJoins,
  campaigns,
  userAddresses,
  type Campaign,
  type CampaignJoin,
  users,
} from '../db/schema.ts';
import { changes, getForUpdate, prepared, preparedSql, rawGet, type Q } from '../db/query.ts';
import { parseGuildIds, type MemberGuilds } from './member-guilds.ts';

// Joins (decision 028 step 2D; one query definition for both engines, decision 044): what the website's join, the no-bot claim,
// My Joins and the same-address rule need from the database, written once for both engines and
// held to its contract by joins-repo.test.ts on both. Slots are taken
// by a conditional UPDATE (`members_remaining > 0`); a join is one row per (user, campaign) by its
// unique index and is paid once (`coins_awarded = false` in the UPDATE, and the ledger's key).
// Discover's in-memory list has its own reads (discover-reads.ts), synchronous on SQLite.

/** The terms a paid no-bot join is frozen with. */
export interface NoBotClaimTerms {
  now: number;
  rewardCents: number;
  sameAddress: boolean;
}

// The address recording runs on a member's first signed-in write every few minutes
// (src/http/write-limits.ts), on the claim's request path too: compiled once (see `prepared`). The later
// of the two times is a CASE, which both engines read alike (their `max`/`greatest` differ).
const recordAddressUpsert = (q: Q) =>
  q
    .insert(userAddresses)
    .values({
      userId: sql.placeholder('userId'),
      addressHash: sql.placeholder('addressHash'),
      lastSeenAt: sql.placeholder('now'),
    })
    .onConflictDoUpdate({
      target: [userAddresses.userId, userAddresses.addressHash],
      set: {
        lastSeenAt: sql`case when excluded.last_seen_at > ${userAddresses.lastSeenAt} then excluded.last_seen_at else ${userAddresses.lastSeenAt} end`,
      },
    });
const RECORD_ADDRESS = prepared((q) => recordAddressUpsert(q).prepare());
// `also`: a further condition (the one-statement form's, below).
const forgetAddresses = (q: Q, also?: SQL) =>
  q
    .delete(userAddresses)
    .where(
      and(
        eq(userAddresses.userId, sql.placeholder('userId')),
        lt(userAddresses.lastSeenAt, sql.placeholder('before')),
        also,
      ),
    );
const FORGET_ADDRESSES = prepared((q) => forgetAddresses(q).prepare());
/**
 * PostgreSQL: `recordAddress` as ONE statement, its own transaction (decision 062, session 17): the same
 * upsert and delete as `with` items. Both see the rows as they were before the statement, so the delete
 * leaves the recorded address alone (the upsert's row is seen at `now` or later, never before `before`,
 * as the two statements in order would leave it; and one statement must not write one row twice).
 */
const RECORD_ADDRESS_ONCE = preparedSql<[recorded: number]>(
  (q) => sql`with recorded as ${recordAddressUpsert(q).returning({ userId: userAddresses.userId })},
    forgotten as ${forgetAddresses(
      q,
      ne(userAddresses.addressHash, sql.placeholder('addressHash')),
    ).returning({
      userId: userAddresses.userId,
    })}
    select count(*) from recorded`,
);

export class JoinsRepository {
  constructor(private readonly h: DbHandle) {}

  async findCampaign(id: string): Promise<Campaign | undefined> {
    return this.h.q.select().from(campaigns).where(eq(campaigns.id, id)).get();
  }

  async findJoin(userId: string, campaignId: string): Promise<CampaignJoin | undefined> {
    return this.h.q
      .select()
      .from(campaignJoins)
      .where(and(eq(campaignJoins.userId, userId), eq(campaignJoins.campaignId, campaignId)))
      .get();
  }

  /** Inserts a pending join; false when the member has a join of this campaign already. */
  async insertPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    const row = await this.h.q
      .insert(campaignJoins)
      .values({ userId, campaignId, joinedAt: now, verified: false, coinsAwarded: false })
      .onConflictDoNothing({ target: [campaignJoins.userId, campaignJoins.campaignId] })
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /** Restarts the clock of a join that never completed (pending or expired); false when it completed. */
  async restartPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    const row = await this.h.q
      .update(campaignJoins)
      .set({ joinedAt: now })
      .where(
        and(
          eq(campaignJoins.userId, userId),
          eq(campaignJoins.campaignId, campaignId),
          eq(campaignJoins.verified, false),
          eq(campaignJoins.coinsAwarded, false),
          eq(campaignJoins.hasLeft, false),
        ),
      )
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /** Takes one slot of a campaign that has one and is not canceled; false when none is left. */
  async takeSlot(campaignId: string): Promise<boolean> {
    const row = await this.h.q
      .update(campaigns)
      .set({ membersRemaining: sql`${campaigns.membersRemaining} - 1` })
      .where(
        and(eq(campaigns.id, campaignId), gt(campaigns.membersRemaining, 0), isNull(campaigns.canceledAt)),
      )
      .returning({ id: campaigns.id })
      .get();
    return row !== undefined;
  }

  /** Marks a no-bot join paid, with its frozen terms; false when it was paid already. */
  async markNoBotClaimed(joinId: string, terms: NoBotClaimTerms): Promise<boolean> {
    const row = await this.h.q
      .update(campaignJoins)
      // No bot watches a no-bot guild, so there is no stay to keep and nothing to charge: frozen as such.
      .set({
        coinsAwarded: true,
        verified: true,
        verifiedAt: terms.now,
        rewardCents: terms.rewardCents,
        minStayMs: 0,
        penaltyCents: 0,
        sameAddress: terms.sameAddress,
      })
      .where(and(eq(campaignJoins.id, joinId), eq(campaignJoins.coinsAwarded, false)))
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /** Saves the guild a no-bot campaign's invite leads to (campaigns listed before it was stored). */
  async setInviteGuildId(campaignId: string, guildId: string): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ inviteGuildId: guildId })
      .where(eq(campaigns.id, campaignId))
      .run();
  }

  /** The member's joins with their campaigns, newest first. */
  async listJoinsWithCampaigns(userId: string): Promise<{ join: CampaignJoin; campaign: Campaign }[]> {
    return this.h.q
      .select({ join: campaignJoins, campaign: campaigns })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .where(eq(campaignJoins.userId, userId))
      .orderBy(desc(campaignJoins.joinedAt), desc(campaignJoins.id))
      .all();
  }

  /** Whether member and owner both used one address at or after `since`. */
  async sharesAddressWithOwner(memberId: string, ownerId: string, since: number): Promise<boolean> {
    const row = await rawGet<{ one: number }>(
      this.h,
      sql`
      select 1 as one from user_addresses m
      join user_addresses o on o.address_hash = m.address_hash
      where m.user_id = ${memberId} and m.last_seen_at >= ${since}
        and o.user_id = ${ownerId} and o.last_seen_at >= ${since}
      limit 1`,
    );
    return row !== undefined;
  }

  /** Paid joins of the campaign from members who shared an address with its owner. */
  async paidSameAddressJoins(campaignId: string): Promise<number> {
    const row = await this.h.q
      .select({ n: count() })
      .from(campaignJoins)
      .where(
        and(
          eq(campaignJoins.campaignId, campaignId),
          eq(campaignJoins.sameAddress, true),
          eq(campaignJoins.coinsAwarded, true),
        ),
      )
      .get();
    return row?.n ?? 0;
  }

  /**
   * The member acted from this address (a keyed hash) at `now`: its last-seen time moves forward (never
   * back), and the member's addresses last seen before `forgetBefore` go.
   */
  async recordAddress(userId: string, addressHash: string, now: number, forgetBefore: number): Promise<void> {
    await RECORD_ADDRESS(this.h).run({ userId, addressHash, now });
    await FORGET_ADDRESSES(this.h).run({ userId, before: forgetBefore });
  }

  /** PostgreSQL, on the pool (`autocommitHandle`): `recordAddress` as one statement that commits by itself. */
  async recordAddressAlone(
    userId: string,
    addressHash: string,
    now: number,
    forgetBefore: number,
  ): Promise<void> {
    if (now <= forgetBefore)
      throw new Error('recordAddressAlone: the address would be forgotten as it is recorded');
    await RECORD_ADDRESS_ONCE(this.h).get({ userId, addressHash, now, before: forgetBefore });
  }

  /** Retention: every address hash last seen before `before` goes; how many went. */
  async pruneAddresses(before: number): Promise<number> {
    return changes(await this.h.q.delete(userAddresses).where(lt(userAddresses.lastSeenAt, before)).run());
  }

  /**
   * Holds the member's joins until the transaction ends, so concurrent joins of one member are paced one
   * after the other (PostgreSQL: the member's users row FOR UPDATE; SQLite's transactions already run
   * one at a time).
   */
  async lockMember(userId: string): Promise<void> {
    await getForUpdate(this.h, this.h.q.select({ id: users.id }).from(users).where(eq(users.id, userId)));
  }

  /** When the member's joins of other campaigns than `exceptCampaignId` were asked for, at or after `since`, oldest first. */
  async joinTimesSince(userId: string, since: number, exceptCampaignId: string): Promise<number[]> {
    const rows = await this.h.q
      .select({ at: campaignJoins.joinedAt })
      .from(campaignJoins)
      .where(
        and(
          eq(campaignJoins.userId, userId),
          gte(campaignJoins.joinedAt, since),
          ne(campaignJoins.campaignId, exceptCampaignId),
        ),
      )
      .orderBy(asc(campaignJoins.joinedAt));
    return rows.map((r) => r.at);
  }

  /** The member's Discord guild list as last read (member_guilds), or undefined. */
  async findMemberGuilds(userId: string): Promise<MemberGuilds | undefined> {
    const row = await this.h.q.select().from(memberGuilds).where(eq(memberGuilds.userId, userId)).get();
    return (
      row && { guildIds: parseGuildIds(row.guildIds), premiumType: row.premiumType, fetchedAt: row.fetchedAt }
    );
  }

  /** Stores the member's guild list; `premiumType` undefined keeps the stored one. */
  async saveMemberGuilds(
    userId: string,
    guildIds: readonly string[],
    premiumType: number | undefined,
    now: number,
  ): Promise<void> {
    const set = {
      guildIds: guildIds.join(','),
      fetchedAt: now,
      ...(premiumType === undefined ? {} : { premiumType }),
    };
    await this.h.q
      .insert(memberGuilds)
      .values({ userId, premiumType: premiumType ?? null, ...set })
      .onConflictDoUpdate({ target: memberGuilds.userId, set })
      .run();
  }
}

export function joinsRepo(h: DbHandle): JoinsRepository {
  return new JoinsRepository(h);
}

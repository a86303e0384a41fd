import { and, asc, count, desc, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { memberGuilds, serverJoins, servers, userAddresses, users } from '../db/schema.pg.ts';
import type { Server, ServerJoin } from '../db/schema.ts';
import type { JoinsRepository, NoBotClaimTerms } from './joins-repo.ts';
import { parseGuildIds, type MemberGuilds } from './member-guilds.ts';

export class PgJoinsRepository implements JoinsRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async findCampaign(id: string): Promise<Server | undefined> {
    const [row] = await this.db.select().from(servers).where(eq(servers.id, id));
    return row;
  }

  async findJoin(userId: string, campaignId: string): Promise<ServerJoin | undefined> {
    const [row] = await this.db
      .select()
      .from(serverJoins)
      .where(and(eq(serverJoins.userId, userId), eq(serverJoins.serverId, campaignId)));
    return row;
  }

  async insertPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    // A concurrent insert of the same (user, campaign) waits for the other's commit, then inserts nothing.
    const rows = await this.db
      .insert(serverJoins)
      .values({ userId, serverId: campaignId, joinedAt: now, verified: false, coinsAwarded: false })
      .onConflictDoNothing({ target: [serverJoins.userId, serverJoins.serverId] })
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async restartPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    const rows = await this.db
      .update(serverJoins)
      .set({ joinedAt: now })
      .where(
        and(
          eq(serverJoins.userId, userId),
          eq(serverJoins.serverId, campaignId),
          eq(serverJoins.verified, false),
          eq(serverJoins.coinsAwarded, false),
          eq(serverJoins.hasLeft, false),
        ),
      )
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async takeSlot(campaignId: string): Promise<boolean> {
    // The row lock makes concurrent takers queue; each re-checks members_remaining > 0 on the row as
    // the previous one committed it, so the last slot is taken once.
    const rows = await this.db
      .update(servers)
      .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
      .where(and(eq(servers.id, campaignId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .returning({ id: servers.id });
    return rows.length > 0;
  }

  async markNoBotClaimed(joinId: string, terms: NoBotClaimTerms): Promise<boolean> {
    const rows = await this.db
      .update(serverJoins)
      .set({
        coinsAwarded: true,
        verified: true,
        verifiedAt: terms.now,
        rewardCents: terms.rewardCents,
        minStayMs: 0,
        penaltyCents: 0,
        sameAddress: terms.sameAddress,
      })
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.coinsAwarded, false)))
      .returning({ id: serverJoins.id });
    return rows.length > 0;
  }

  async setInviteGuildId(campaignId: string, guildId: string): Promise<void> {
    await this.db.update(servers).set({ inviteGuildId: guildId }).where(eq(servers.id, campaignId));
  }

  async listJoinsWithCampaigns(userId: string): Promise<{ join: ServerJoin; server: Server }[]> {
    return this.db
      .select({ join: serverJoins, server: servers })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(eq(serverJoins.userId, userId))
      .orderBy(desc(serverJoins.joinedAt), desc(serverJoins.id));
  }

  async sharesAddressWithOwner(memberId: string, ownerId: string, since: number): Promise<boolean> {
    const result = await this.db.execute<{ one: number }>(sql`
      select 1 as one from user_addresses m
      join user_addresses o on o.address_hash = m.address_hash
      where m.user_id = ${memberId} and m.last_seen_at >= ${since}
        and o.user_id = ${ownerId} and o.last_seen_at >= ${since}
      limit 1`);
    return result.rows.length > 0;
  }

  async paidSameAddressJoins(campaignId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(serverJoins)
      .where(
        and(
          eq(serverJoins.serverId, campaignId),
          eq(serverJoins.sameAddress, true),
          eq(serverJoins.coinsAwarded, true),
        ),
      );
    return Number(row?.n ?? 0);
  }

  async recordAddress(userId: string, addressHash: string, now: number, forgetBefore: number): Promise<void> {
    await this.db
      .insert(userAddresses)
      .values({ userId, addressHash, lastSeenAt: now })
      .onConflictDoUpdate({
        target: [userAddresses.userId, userAddresses.addressHash],
        set: { lastSeenAt: sql`greatest(${userAddresses.lastSeenAt}, excluded.last_seen_at)` },
      });
    await this.db
      .delete(userAddresses)
      .where(and(eq(userAddresses.userId, userId), lt(userAddresses.lastSeenAt, forgetBefore)));
  }

  async pruneAddresses(before: number): Promise<number> {
    const rows = await this.db
      .delete(userAddresses)
      .where(lt(userAddresses.lastSeenAt, before))
      .returning({ userId: userAddresses.userId });
    return rows.length;
  }

  async lockMember(userId: string): Promise<void> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async joinTimesSince(userId: string, since: number, exceptCampaignId: string): Promise<number[]> {
    const rows = await this.db
      .select({ at: serverJoins.joinedAt })
      .from(serverJoins)
      .where(
        and(
          eq(serverJoins.userId, userId),
          gte(serverJoins.joinedAt, since),
          ne(serverJoins.serverId, exceptCampaignId),
        ),
      )
      .orderBy(asc(serverJoins.joinedAt));
    return rows.map((r) => r.at);
  }

  async findMemberGuilds(userId: string): Promise<MemberGuilds | undefined> {
    const [row] = await this.db.select().from(memberGuilds).where(eq(memberGuilds.userId, userId));
    return (
      row && { guildIds: parseGuildIds(row.guildIds), premiumType: row.premiumType, fetchedAt: row.fetchedAt }
    );
  }

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
    await this.db
      .insert(memberGuilds)
      .values({ userId, premiumType: premiumType ?? null, ...set })
      .onConflictDoUpdate({ target: memberGuilds.userId, set });
  }
}

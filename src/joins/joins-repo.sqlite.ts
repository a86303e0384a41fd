import { and, asc, count, desc, eq, gt, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Statement } from 'better-sqlite3';
import type { Connection, Db } from '../db/client.ts';
import {
  memberGuilds,
  serverJoins,
  servers,
  userAddresses,
  type Server,
  type ServerJoin,
} from '../db/schema.ts';
import type { JoinsRepository, NoBotClaimTerms } from './joins-repo.ts';
import { parseGuildIds, type MemberGuilds } from './member-guilds.ts';

interface AddressStatements {
  upsert: Statement<[string, string, number]>;
  forgetOld: Statement<[string, number]>;
}
/** Recording runs on signed-in writes (at most every few minutes per member and address): prepared once. */
const addressStatements = new WeakMap<Connection, AddressStatements>();

function addressStatementsFor(client: Connection): AddressStatements {
  let found = addressStatements.get(client);
  if (!found) {
    found = {
      upsert: client.prepare<[string, string, number]>(
        `INSERT INTO user_addresses (user_id, address_hash, last_seen_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id, address_hash) DO UPDATE SET last_seen_at = max(last_seen_at, excluded.last_seen_at)`,
      ),
      forgetOld: client.prepare<[string, number]>(
        'DELETE FROM user_addresses WHERE user_id = ? AND last_seen_at < ?',
      ),
    };
    addressStatements.set(client, found);
  }
  return found;
}

export class SqliteJoinsRepository implements JoinsRepository {
  constructor(private readonly db: Db) {}

  async findCampaign(id: string): Promise<Server | undefined> {
    return this.db.select().from(servers).where(eq(servers.id, id)).get();
  }

  async findJoin(userId: string, campaignId: string): Promise<ServerJoin | undefined> {
    return this.db
      .select()
      .from(serverJoins)
      .where(and(eq(serverJoins.userId, userId), eq(serverJoins.serverId, campaignId)))
      .get();
  }

  async insertPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    const row = this.db
      .insert(serverJoins)
      .values({ userId, serverId: campaignId, joinedAt: now, verified: false, coinsAwarded: false })
      .onConflictDoNothing({ target: [serverJoins.userId, serverJoins.serverId] })
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async restartPendingJoin(userId: string, campaignId: string, now: number): Promise<boolean> {
    const row = this.db
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
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async takeSlot(campaignId: string): Promise<boolean> {
    const row = this.db
      .update(servers)
      .set({ membersRemaining: sql`${servers.membersRemaining} - 1` })
      .where(and(eq(servers.id, campaignId), gt(servers.membersRemaining, 0), isNull(servers.canceledAt)))
      .returning({ id: servers.id })
      .get();
    return row !== undefined;
  }

  async markNoBotClaimed(joinId: string, terms: NoBotClaimTerms): Promise<boolean> {
    const row = this.db
      .update(serverJoins)
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
      .where(and(eq(serverJoins.id, joinId), eq(serverJoins.coinsAwarded, false)))
      .returning({ id: serverJoins.id })
      .get();
    return row !== undefined;
  }

  async setInviteGuildId(campaignId: string, guildId: string): Promise<void> {
    this.db.update(servers).set({ inviteGuildId: guildId }).where(eq(servers.id, campaignId)).run();
  }

  async listJoinsWithCampaigns(userId: string): Promise<{ join: ServerJoin; server: Server }[]> {
    return this.db
      .select({ join: serverJoins, server: servers })
      .from(serverJoins)
      .innerJoin(servers, eq(servers.id, serverJoins.serverId))
      .where(eq(serverJoins.userId, userId))
      .orderBy(desc(serverJoins.joinedAt), desc(serverJoins.id))
      .all();
  }

  async sharesAddressWithOwner(memberId: string, ownerId: string, since: number): Promise<boolean> {
    const row = this.db.get<{ one: number } | undefined>(sql`
      select 1 as one from user_addresses m
      join user_addresses o on o.address_hash = m.address_hash
      where m.user_id = ${memberId} and m.last_seen_at >= ${since}
        and o.user_id = ${ownerId} and o.last_seen_at >= ${since}
      limit 1`);
    return row !== undefined;
  }

  async paidSameAddressJoins(campaignId: string): Promise<number> {
    const row = this.db
      .select({ n: count() })
      .from(serverJoins)
      .where(
        and(
          eq(serverJoins.serverId, campaignId),
          eq(serverJoins.sameAddress, true),
          eq(serverJoins.coinsAwarded, true),
        ),
      )
      .get();
    return row?.n ?? 0;
  }

  async recordAddress(userId: string, addressHash: string, now: number, forgetBefore: number): Promise<void> {
    const statements = addressStatementsFor(this.db.$client);
    statements.upsert.run(userId, addressHash, now);
    statements.forgetOld.run(userId, forgetBefore);
  }

  async pruneAddresses(before: number): Promise<number> {
    return this.db.delete(userAddresses).where(lt(userAddresses.lastSeenAt, before)).run().changes;
  }

  async lockMember(): Promise<void> {
    // SQLite: the store's transactions run one at a time (BEGIN IMMEDIATE behind a mutex).
  }

  async joinTimesSince(userId: string, since: number, exceptCampaignId: string): Promise<number[]> {
    return this.db
      .select({ at: serverJoins.joinedAt })
      .from(serverJoins)
      .where(
        and(
          eq(serverJoins.userId, userId),
          gte(serverJoins.joinedAt, since),
          ne(serverJoins.serverId, exceptCampaignId),
        ),
      )
      .orderBy(asc(serverJoins.joinedAt))
      .all()
      .map((r) => r.at);
  }

  async findMemberGuilds(userId: string): Promise<MemberGuilds | undefined> {
    const row = this.db.select().from(memberGuilds).where(eq(memberGuilds.userId, userId)).get();
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
    this.db
      .insert(memberGuilds)
      .values({ userId, premiumType: premiumType ?? null, ...set })
      .onConflictDoUpdate({ target: memberGuilds.userId, set })
      .run();
  }
}

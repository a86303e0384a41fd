import type { DbHandle } from '../db/engine.ts';
import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNotNull,
  isNull,
  lte,
  min,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { SelectedFields, SQLiteSelect } from 'drizzle-orm/sqlite-core';
import type { SqliteRemoteResult } from 'drizzle-orm/sqlite-proxy';
import { changes } from '../db/query.ts';
import { campaignJoins, campaigns, users } from '../db/schema.ts';
import { CAMPAIGN_KIND_RULES, type CampaignKind } from '../shared/campaign-kinds.ts';
import type { JoinTerms, LeaveReason } from './rules.ts';

// What the bot and its periodic jobs need from the database (decision 028 step 3): verification, leaves,
// late refunds, the completion DM, the bot's presence in guilds and what reconciliation looks at, written
// once for both engines (decision 044) and held to its contract by bot-repo.test.ts on both. Every exactly-once rule is said in the statement that
// writes: a join is verified once (`verified = false`), a slot is taken only while one is left
// (`members_remaining > 0`), a leave is recorded once (`has_left = false`), a penalty refunded once
// (`penalized = true`), a completion DM claimed by one sender (the lease on `completion_dm_retry_at`).

/** A member's pending website join of a guild, with what verification needs of its campaign. */
export interface PendingJoin {
  joinId: string;
  campaignId: string;
  name: string;
  ownerId: string;
}

/** A slot taken: the terms it pays with and the campaign's slots left after it. */
/** How a claimed join ends its verification. */
export interface VerifiedJoinOutcome {
  /** The terms it was paid with, frozen on the row (decision 016); null: verified without pay or slot. */
  terms: JoinTerms | null;
  sameAddress: boolean;
  /** Discord's joined_at of the membership, recorded for a paid join (the kick window). */
  discordJoinedAt?: number;
}

/** A paid, still-present join of a member in a guild (what a leave settles). */
export interface OpenPaidJoin {
  joinId: string;
  verifiedAt: number | null;
  minStayMs: number | null;
  penaltyCents: number | null;
  rewardCents: number | null;
  campaignId: string;
  name: string;
  kind: CampaignKind;
  canceledAt: number | null;
}

/** A join charged as a voluntary leave (what a late kick or ban entry may refund). */
export interface ChargedLeave {
  joinId: string;
  userId: string;
  campaignId: string;
  name: string;
  penaltyCents: number | null;
  rewardCents: number | null;
  kind: CampaignKind;
  leftAt: number | null;
  /** When the bot received the removal (Discord's clock), null for older rows. */
  leftDiscordAt: number | null;
  discordJoinedAt: number | null;
}

/** A paid join reconciliation may find absent: its member, guild and frozen stay. */
export interface InStayJoin {
  guildId: string | null;
  discordUserId: string;
  verifiedAt: number | null;
  discordJoinedAt: number | null;
  minStayMs: number | null;
  kind: CampaignKind;
}

export interface CompletionNotice {
  name: string;
  slots: number;
  ownerDiscordId: string;
}

/** Inner joins: no joined table's columns can come back null. */
type InnerJoined = { server_joins: 'not-null'; servers: 'not-null'; users: 'not-null' };
type WithCampaign = { server_joins: 'not-null'; servers: 'not-null' };

export class BotRepository {
  constructor(private readonly h: DbHandle) {}

  /** Our user id for a Discord account, if it ever signed in on the website. */
  async findUserIdByDiscordId(discordId: string): Promise<string | undefined> {
    return (await this.h.q.select({ id: users.id }).from(users).where(eq(users.discordId, discordId)).get())
      ?.id;
  }

  // ------------------------------------------------------------ verification
  /** The member's pending joins of the guild's open campaigns recorded at or after `since`, oldest first. */
  async listPendingJoins(userId: string, guildId: string, since: number): Promise<PendingJoin[]> {
    return this.selectPresentJoinsOfGuild(
      {
        joinId: campaignJoins.id,
        campaignId: campaigns.id,
        name: campaigns.name,
        ownerId: campaigns.ownerId,
      },
      userId,
      guildId,
      eq(campaignJoins.verified, false),
      isNull(campaigns.canceledAt),
      gte(campaignJoins.joinedAt, since),
    )
      .orderBy(asc(campaignJoins.joinedAt), asc(campaignJoins.id))
      .all();
  }

  /** Marks a pending join verified at `at` (nothing paid yet); false when it was verified already. */
  async claimPendingJoin(joinId: string, at: number): Promise<boolean> {
    const row = await this.h.q
      .update(campaignJoins)
      .set({ verified: true, verifiedAt: at, coinsAwarded: false })
      .where(and(eq(campaignJoins.id, joinId), eq(campaignJoins.verified, false)))
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /**
   * Takes one featured slot of a campaign that is not canceled (and one of its member slots); undefined
   * when its featured pool is empty. What the campaign becomes then is the service's rule (verify-join).
   */
  async takeFeaturedSlot(
    campaignId: string,
  ): Promise<{ membersRemaining: number; featuredRemaining: number } | undefined> {
    return this.h.q
      .update(campaigns)
      .set({
        membersRemaining: sql`${campaigns.membersRemaining} - 1`,
        featuredRemaining: sql`${campaigns.featuredRemaining} - 1`,
      })
      .where(
        and(
          eq(campaigns.id, campaignId),
          gt(campaigns.featuredRemaining, 0),
          gt(campaigns.membersRemaining, 0),
          isNull(campaigns.canceledAt),
        ),
      )
      .returning({
        membersRemaining: campaigns.membersRemaining,
        featuredRemaining: campaigns.featuredRemaining,
      })
      .get();
  }

  /** Takes one member slot beyond the featured pool of a campaign that is not canceled; undefined when none. */
  async takeRegularSlot(campaignId: string): Promise<{ membersRemaining: number } | undefined> {
    return this.h.q
      .update(campaigns)
      .set({ membersRemaining: sql`${campaigns.membersRemaining} - 1` })
      .where(
        and(
          eq(campaigns.id, campaignId),
          gt(campaigns.membersRemaining, campaigns.featuredRemaining),
          isNull(campaigns.canceledAt),
        ),
      )
      .returning({ membersRemaining: campaigns.membersRemaining })
      .get();
  }

  /** Makes the campaign a regular one, at the regular reward (its featured pool ran out). */
  async endFeaturing(campaignId: string): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ kind: 'regular', isFeatured: false, coinReward: CAMPAIGN_KIND_RULES.regular.rewardCents })
      .where(eq(campaigns.id, campaignId))
      .run();
  }

  /** Records how a join claimed by claimPendingJoin ended: paid with frozen terms, or not. */
  async settleVerifiedJoin(joinId: string, outcome: VerifiedJoinOutcome): Promise<void> {
    const { terms } = outcome;
    await this.h.q
      .update(campaignJoins)
      .set({
        coinsAwarded: terms !== null,
        rewardCents: terms?.rewardCents ?? 0,
        minStayMs: terms?.minStayMs ?? 0,
        penaltyCents: terms?.penaltyCents ?? 0,
        sameAddress: outcome.sameAddress,
        ...(terms && outcome.discordJoinedAt !== undefined
          ? { discordJoinedAt: outcome.discordJoinedAt }
          : {}),
      })
      .where(eq(campaignJoins.id, joinId))
      .run();
  }

  /**
   * Closes without pay the member's pending joins of the guild recorded after `discordJoinedAt` + skew:
   * they were in the guild before joining through the website. Returns how many.
   */
  async closeJoinsOfEarlierMember(
    discordUserId: string,
    guildId: string,
    discordJoinedAt: number,
    skewMs: number,
    at: number,
  ): Promise<number> {
    return changes(
      await this.h.q
        .update(campaignJoins)
        .set({ verified: true, verifiedAt: at, coinsAwarded: false, discordJoinedAt })
        .where(
          and(
            inArray(
              campaignJoins.userId,
              this.h.q.select({ id: users.id }).from(users).where(eq(users.discordId, discordUserId)),
            ),
            inArray(
              campaignJoins.campaignId,
              this.h.q.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.guildId, guildId)),
            ),
            eq(campaignJoins.verified, false),
            eq(campaignJoins.hasLeft, false),
            gt(campaignJoins.joinedAt, discordJoinedAt + skewMs),
          ),
        )
        .run(),
    );
  }

  // ------------------------------------------------------------ leaves
  /** The member's paid joins of the guild not recorded as left, by campaign id (the order rows are locked in). */
  async listOpenPaidJoins(userId: string, guildId: string): Promise<OpenPaidJoin[]> {
    return this.selectPresentJoinsOfGuild(
      {
        joinId: campaignJoins.id,
        verifiedAt: campaignJoins.verifiedAt,
        minStayMs: campaignJoins.minStayMs,
        penaltyCents: campaignJoins.penaltyCents,
        rewardCents: campaignJoins.rewardCents,
        campaignId: campaigns.id,
        name: campaigns.name,
        kind: campaigns.kind,
        canceledAt: campaigns.canceledAt,
      },
      userId,
      guildId,
      eq(campaignJoins.coinsAwarded, true),
    )
      .orderBy(asc(campaigns.id), asc(campaignJoins.id))
      .all();
  }

  /** Earliest verification and Discord joined_at of the member's open paid joins of the guild; null without any. */
  async findOpenPaidJoin(
    discordUserId: string,
    guildId: string,
  ): Promise<{ verifiedAt: number; discordJoinedAt: number | null } | null> {
    const row = await this.selectJoinsWithCampaignAndUser({
      verifiedAt: min(campaignJoins.verifiedAt),
      discordJoinedAt: min(campaignJoins.discordJoinedAt),
    })
      .where(
        and(
          eq(users.discordId, discordUserId),
          eq(campaigns.guildId, guildId),
          eq(campaignJoins.coinsAwarded, true),
          eq(campaignJoins.hasLeft, false),
        ),
      )
      .get();
    if (row?.verifiedAt === null || row?.verifiedAt === undefined) return null;
    return { verifiedAt: row.verifiedAt, discordJoinedAt: row.discordJoinedAt };
  }

  /** Records the leave of a join; false when it was recorded already. */
  async markLeft(
    joinId: string,
    leave: { at: number; reason: LeaveReason; penalized: boolean; discordAt?: number },
  ): Promise<boolean> {
    const row = await this.h.q
      .update(campaignJoins)
      .set({
        hasLeft: true,
        leftAt: leave.at,
        leftDiscordAt: leave.discordAt ?? null,
        leftReason: leave.reason,
        penalized: leave.penalized,
      })
      .where(and(eq(campaignJoins.id, joinId), eq(campaignJoins.hasLeft, false)))
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /** A penalised leave gives the slot back (to the featured pool for a featured slot), unless canceled. */
  async giveSlotBack(campaignId: string, featuredSlot: boolean): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({
        membersRemaining: sql`${campaigns.membersRemaining} + 1`,
        ...(featuredSlot ? { featuredRemaining: sql`${campaigns.featuredRemaining} + 1` } : {}),
      })
      .where(and(eq(campaigns.id, campaignId), isNull(campaigns.canceledAt)))
      .run();
  }

  /** Every paid join of the guild's campaigns still present is recorded as left (guild deleted); how many. */
  async markGuildJoinsLeft(guildId: string, at: number): Promise<number> {
    return changes(
      await this.h.q
        .update(campaignJoins)
        .set({ hasLeft: true, leftAt: at, leftReason: 'guild_deleted' satisfies LeaveReason })
        .where(
          and(
            inArray(
              campaignJoins.campaignId,
              this.h.q.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.guildId, guildId)),
            ),
            eq(campaignJoins.coinsAwarded, true),
            eq(campaignJoins.hasLeft, false),
          ),
        )
        .run(),
    );
  }

  /** The member's joins of the guild charged as voluntary leaves, by campaign id. */
  async listChargedLeaves(discordUserId: string, guildId: string): Promise<ChargedLeave[]> {
    return this.selectJoinsWithCampaignAndUser({
      joinId: campaignJoins.id,
      userId: users.id,
      campaignId: campaigns.id,
      name: campaigns.name,
      penaltyCents: campaignJoins.penaltyCents,
      rewardCents: campaignJoins.rewardCents,
      kind: campaigns.kind,
      leftAt: campaignJoins.leftAt,
      leftDiscordAt: campaignJoins.leftDiscordAt,
      discordJoinedAt: campaignJoins.discordJoinedAt,
    })
      .where(
        and(
          eq(users.discordId, discordUserId),
          eq(campaigns.guildId, guildId),
          eq(campaignJoins.penalized, true),
          eq(campaignJoins.leftReason, 'leave' satisfies LeaveReason),
        ),
      )
      .orderBy(asc(campaigns.id), asc(campaignJoins.id))
      .all();
  }

  /** Turns a charged leave into a kick or ban; false when its penalty was refunded already. */
  async refundPenaltyOf(joinId: string, reason: 'kick' | 'ban'): Promise<boolean> {
    const row = await this.h.q
      .update(campaignJoins)
      .set({ penalized: false, leftReason: reason })
      .where(and(eq(campaignJoins.id, joinId), eq(campaignJoins.penalized, true)))
      .returning({ id: campaignJoins.id })
      .get();
    return row !== undefined;
  }

  /** Undoes refundPenaltyOf in the same transaction (its slot could not be taken again). */
  async restorePenaltyOf(joinId: string): Promise<void> {
    await this.h.q
      .update(campaignJoins)
      .set({ penalized: true, leftReason: 'leave' satisfies LeaveReason })
      .where(eq(campaignJoins.id, joinId))
      .run();
  }

  /** Takes again the slot a refunded leave gave back, if it is still free; false when it is not. */
  async retakeSlot(campaignId: string, featuredSlot: boolean): Promise<boolean> {
    return (
      changes(
        await this.h.q
          .update(campaigns)
          .set({
            membersRemaining: sql`${campaigns.membersRemaining} - 1`,
            ...(featuredSlot ? { featuredRemaining: sql`${campaigns.featuredRemaining} - 1` } : {}),
          })
          .where(
            and(
              eq(campaigns.id, campaignId),
              featuredSlot
                ? and(gt(campaigns.featuredRemaining, 0), gt(campaigns.membersRemaining, 0))
                : gt(campaigns.membersRemaining, campaigns.featuredRemaining),
            ),
          )
          .run(),
      ) > 0
    );
  }

  // ------------------------------------------------------------ completion DM
  /**
   * Claims the campaign's completion DM until `leaseUntil`: only a finished, not canceled campaign whose
   * owner was neither told nor found unreachable and that nobody holds or waits to retry (as of `now`).
   */
  async claimCompletionDm(campaignId: string, now: number, leaseUntil: number): Promise<boolean> {
    const row = await this.h.q
      .update(campaigns)
      .set({ completionDmRetryAt: leaseUntil })
      .where(
        and(
          eq(campaigns.id, campaignId),
          eq(campaigns.membersRemaining, 0),
          isNull(campaigns.canceledAt),
          eq(campaigns.completionNotificationSent, false),
          isNull(campaigns.ownerUnreachableAt),
          or(isNull(campaigns.completionDmRetryAt), lte(campaigns.completionDmRetryAt, now)),
        ),
      )
      .returning({ id: campaigns.id })
      .get();
    return row !== undefined;
  }

  async findCompletionNotice(campaignId: string): Promise<CompletionNotice | undefined> {
    return this.h.q
      .select({ name: campaigns.name, slots: campaigns.initialMemberSlots, ownerDiscordId: users.discordId })
      .from(campaigns)
      .innerJoin(users, eq(users.id, campaigns.ownerId))
      .where(eq(campaigns.id, campaignId))
      .get();
  }

  async markCompletionDmSent(campaignId: string): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ completionNotificationSent: true, completionDmRetryAt: null })
      .where(eq(campaigns.id, campaignId))
      .run();
  }

  /** Counts a failed attempt; the attempts so far (undefined for an unknown campaign). */
  async countCompletionDmAttempt(campaignId: string): Promise<number | undefined> {
    return (
      await this.h.q
        .update(campaigns)
        .set({ completionDmAttempts: sql`${campaigns.completionDmAttempts} + 1` })
        .where(eq(campaigns.id, campaignId))
        .returning({ attempts: campaigns.completionDmAttempts })
        .get()
    )?.attempts;
  }

  async markOwnerUnreachable(campaignId: string, at: number): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ ownerUnreachableAt: at, completionDmRetryAt: null })
      .where(eq(campaigns.id, campaignId))
      .run();
  }

  async setCompletionDmRetryAt(campaignId: string, at: number): Promise<void> {
    await this.h.q
      .update(campaigns)
      .set({ completionDmRetryAt: at })
      .where(eq(campaigns.id, campaignId))
      .run();
  }

  /** Finished campaigns whose completion DM is due (not claimed, or its lease or retry wait is past), oldest first. */
  async listDueCompletions(now: number): Promise<{ id: string; guildId: string | null }[]> {
    return this.h.q
      .select({ id: campaigns.id, guildId: campaigns.guildId })
      .from(campaigns)
      .where(
        and(
          eq(campaigns.membersRemaining, 0),
          gt(campaigns.initialMemberSlots, 0),
          isNull(campaigns.canceledAt),
          eq(campaigns.completionNotificationSent, false),
          isNull(campaigns.ownerUnreachableAt),
          or(isNull(campaigns.completionDmRetryAt), lte(campaigns.completionDmRetryAt, now)),
        ),
      )
      .orderBy(asc(campaigns.createdAt), asc(campaigns.id))
      .all();
  }

  // ------------------------------------------------------------ the bot in guilds
  /** Pauses the guild's open campaigns not paused yet; their ids. */
  async pauseGuildCampaigns(guildId: string, at: number): Promise<string[]> {
    const rows = await this.h.q
      .update(campaigns)
      .set({ botRemovedAt: at })
      .where(
        and(eq(campaigns.guildId, guildId), isNull(campaigns.botRemovedAt), isNull(campaigns.canceledAt)),
      )
      .returning({ id: campaigns.id });
    return rows.map((r) => r.id);
  }

  /** Resumes the guild's paused campaigns; their ids. */
  async resumeGuildCampaigns(guildId: string): Promise<string[]> {
    const rows = await this.h.q
      .update(campaigns)
      .set({ botRemovedAt: null })
      .where(and(eq(campaigns.guildId, guildId), isNotNull(campaigns.botRemovedAt)))
      .returning({ id: campaigns.id });
    return rows.map((r) => r.id);
  }

  /** Invite code and link of every campaign of the guild. */
  async listGuildInvites(guildId: string): Promise<{ code: string | null; link: string }[]> {
    return this.h.q
      .select({ code: campaigns.inviteCode, link: campaigns.inviteLink })
      .from(campaigns)
      .where(eq(campaigns.guildId, guildId))
      .all();
  }

  /** Guild and pause state of every open bot campaign (distinct). */
  async listOpenCampaignGuilds(): Promise<{ guildId: string | null; removedAt: number | null }[]> {
    return this.h.q
      .selectDistinct({ guildId: campaigns.guildId, removedAt: campaigns.botRemovedAt })
      .from(campaigns)
      .where(and(isNotNull(campaigns.guildId), isNull(campaigns.canceledAt)))
      .all();
  }

  /** Which of these guilds have a paused campaign. */
  async listPausedGuilds(guildIds: string[]): Promise<string[]> {
    if (guildIds.length === 0) return [];
    const rows = await this.h.q
      .selectDistinct({ guildId: campaigns.guildId })
      .from(campaigns)
      .where(and(inArray(campaigns.guildId, guildIds), isNotNull(campaigns.botRemovedAt)));
    return rows.map((r) => r.guildId).filter((g): g is string => g !== null);
  }

  /** Whether an open campaign of the guild has no slot left. */
  async hasFullCampaign(guildId: string): Promise<boolean> {
    const row = await this.h.q
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(
        and(eq(campaigns.guildId, guildId), lte(campaigns.membersRemaining, 0), isNull(campaigns.canceledAt)),
      )
      .limit(1)
      .get();
    return row !== undefined;
  }

  // ------------------------------------------------------------ reconciliation
  /** Paid, present joins of bot campaigns verified at or after `since`. */
  async listInStayJoins(since: number): Promise<InStayJoin[]> {
    return this.selectJoinsWithCampaignAndUser({
      guildId: campaigns.guildId,
      discordUserId: users.discordId,
      verifiedAt: campaignJoins.verifiedAt,
      discordJoinedAt: campaignJoins.discordJoinedAt,
      minStayMs: campaignJoins.minStayMs,
      kind: campaigns.kind,
    })
      .where(
        and(
          eq(campaignJoins.coinsAwarded, true),
          eq(campaignJoins.hasLeft, false),
          isNotNull(campaigns.guildId),
          gte(campaignJoins.verifiedAt, since),
        ),
      )
      .all();
  }

  /** (guild, member) pairs with a pending join of an open bot campaign recorded at or after `since`. */
  async listPendingMembers(since: number): Promise<{ guildId: string | null; discordUserId: string }[]> {
    return this.h.q
      .selectDistinct({ guildId: campaigns.guildId, discordUserId: users.discordId })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .innerJoin(users, eq(users.id, campaignJoins.userId))
      .where(pendingOfOpenBotCampaign(since))
      .all();
  }

  /** Guilds where this member has a pending join of an open bot campaign recorded at or after `since`, newest first. */
  async listPendingGuildsOfMember(userId: string, since: number): Promise<string[]> {
    const rows = await this.h.q
      .select({ guildId: campaigns.guildId, joinedAt: campaignJoins.joinedAt })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .where(and(eq(campaignJoins.userId, userId), pendingOfOpenBotCampaign(since)))
      .orderBy(desc(campaignJoins.joinedAt))
      .all();
    return [...new Set(rows.flatMap((r) => (r.guildId ? [r.guildId] : [])))];
  }

  // ------------------------------------------------------------ slash commands
  /** Name and kind of a campaign (wording of replies). */
  async findCampaignSummary(campaignId: string): Promise<{ name: string; kind: CampaignKind } | undefined> {
    return this.h.q
      .select({ name: campaigns.name, kind: campaigns.kind })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId))
      .get();
  }

  /**
   * Join rows with their campaign and their member. The fields are generic, which drizzle's select
   * types cannot follow through two joins, so the builder is typed here as what it is: a partial
   * select over three inner-joined tables.
   */
  /** The member's joins of the guild's campaigns not recorded as left, narrowed by `conditions`. */
  private selectPresentJoinsOfGuild<T extends SelectedFields>(
    fields: T,
    userId: string,
    guildId: string,
    ...conditions: SQL[]
  ): SQLiteSelect<'server_joins', 'async', SqliteRemoteResult, T, 'partial', WithCampaign> {
    const query = this.h.q
      .select(fields as SelectedFields)
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .$dynamic() as SQLiteSelect<'server_joins', 'async', SqliteRemoteResult, T, 'partial', WithCampaign>;
    return query.where(
      and(
        eq(campaignJoins.userId, userId),
        eq(campaigns.guildId, guildId),
        eq(campaignJoins.hasLeft, false),
        ...conditions,
      ),
    );
  }

  private selectJoinsWithCampaignAndUser<T extends SelectedFields>(
    fields: T,
  ): SQLiteSelect<'server_joins', 'async', SqliteRemoteResult, T, 'partial', InnerJoined> {
    return this.h.q
      .select(fields as SelectedFields)
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .innerJoin(users, eq(users.id, campaignJoins.userId))
      .$dynamic() as SQLiteSelect<'server_joins', 'async', SqliteRemoteResult, T, 'partial', InnerJoined>;
  }
}

export function botRepo(h: DbHandle): BotRepository {
  return new BotRepository(h);
}

/** A pending join (not verified, not left) of an open bot campaign, recorded at or after `since`. */
function pendingOfOpenBotCampaign(since: number) {
  return and(
    eq(campaignJoins.verified, false),
    eq(campaignJoins.hasLeft, false),
    isNotNull(campaigns.guildId),
    isNull(campaigns.canceledAt),
    gte(campaignJoins.joinedAt, since),
  );
}

import type { DbHandle } from '../db/engine.ts';
import type { CampaignKind } from '../shared/campaign-kinds.ts';
import type { JoinTerms, LeaveReason } from './rules.ts';
import { SqliteBotRepository } from './bot-repo.sqlite.ts';
import { PgBotRepository } from './bot-repo.pg.ts';

// What the bot and its periodic jobs need from the database (decision 028 step 3, the guide in decision
// 034): verification, leaves, late refunds, the completion DM, the bot's presence in guilds and what
// reconciliation looks at, as one async interface with a SQLite and a PostgreSQL implementation, held
// together by bot-repo.test.ts on both engines. Every exactly-once rule is said in the statement that
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
export interface SlotTaken {
  terms: JoinTerms;
  membersRemaining: number;
}

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

export interface BotRepository {
  /** Our user id for a Discord account, if it ever signed in on the website. */
  findUserIdByDiscordId(discordId: string): Promise<string | undefined>;

  // ------------------------------------------------------------ verification
  /** The member's pending joins of the guild's open campaigns recorded at or after `since`, oldest first. */
  listPendingJoins(userId: string, guildId: string, since: number): Promise<PendingJoin[]>;
  /** Marks a pending join verified at `at` (nothing paid yet); false when it was verified already. */
  claimPendingJoin(joinId: string, at: number): Promise<boolean>;
  /**
   * Takes one slot of a campaign that is not canceled: a featured slot while the featured pool lasts
   * (the campaign turns regular when that pool runs out with regular slots left), else one beyond the
   * featured pool. null when none is left.
   */
  takeSlot(campaignId: string): Promise<SlotTaken | null>;
  /** Records how a join claimed by claimPendingJoin ended: paid with frozen terms, or not. */
  settleVerifiedJoin(joinId: string, outcome: VerifiedJoinOutcome): Promise<void>;
  /**
   * Closes without pay the member's pending joins of the guild recorded after `discordJoinedAt` + skew:
   * they were in the guild before joining through the website. Returns how many.
   */
  closeJoinsOfEarlierMember(
    discordUserId: string,
    guildId: string,
    discordJoinedAt: number,
    skewMs: number,
    at: number,
  ): Promise<number>;

  // ------------------------------------------------------------ leaves
  /** The member's paid joins of the guild not recorded as left, by campaign id (the order rows are locked in). */
  listOpenPaidJoins(userId: string, guildId: string): Promise<OpenPaidJoin[]>;
  /** Earliest verification and Discord joined_at of the member's open paid joins of the guild; null without any. */
  findOpenPaidJoin(
    discordUserId: string,
    guildId: string,
  ): Promise<{ verifiedAt: number; discordJoinedAt: number | null } | null>;
  /** Records the leave of a join; false when it was recorded already. */
  markLeft(
    joinId: string,
    leave: { at: number; reason: LeaveReason; penalized: boolean; discordAt?: number },
  ): Promise<boolean>;
  /** A penalised leave gives the slot back (to the featured pool for a featured slot), unless canceled. */
  giveSlotBack(campaignId: string, featuredSlot: boolean): Promise<void>;
  /** Every paid join of the guild's campaigns still present is recorded as left (guild deleted); how many. */
  markGuildJoinsLeft(guildId: string, at: number): Promise<number>;
  /** The member's joins of the guild charged as voluntary leaves, by campaign id. */
  listChargedLeaves(discordUserId: string, guildId: string): Promise<ChargedLeave[]>;
  /** Turns a charged leave into a kick or ban; false when its penalty was refunded already. */
  refundPenaltyOf(joinId: string, reason: 'kick' | 'ban'): Promise<boolean>;
  /** Undoes refundPenaltyOf in the same transaction (its slot could not be taken again). */
  restorePenaltyOf(joinId: string): Promise<void>;
  /** Takes again the slot a refunded leave gave back, if it is still free; false when it is not. */
  retakeSlot(campaignId: string, featuredSlot: boolean): Promise<boolean>;

  // ------------------------------------------------------------ completion DM
  /**
   * Claims the campaign's completion DM until `leaseUntil`: only a finished, not canceled campaign whose
   * owner was neither told nor found unreachable and that nobody holds or waits to retry (as of `now`).
   */
  claimCompletionDm(campaignId: string, now: number, leaseUntil: number): Promise<boolean>;
  findCompletionNotice(campaignId: string): Promise<CompletionNotice | undefined>;
  markCompletionDmSent(campaignId: string): Promise<void>;
  /** Counts a failed attempt; the attempts so far (undefined for an unknown campaign). */
  countCompletionDmAttempt(campaignId: string): Promise<number | undefined>;
  markOwnerUnreachable(campaignId: string, at: number): Promise<void>;
  setCompletionDmRetryAt(campaignId: string, at: number): Promise<void>;
  /** Finished campaigns whose completion DM is due (not claimed, or its lease or retry wait is past), oldest first. */
  listDueCompletions(now: number): Promise<{ id: string; guildId: string | null }[]>;

  // ------------------------------------------------------------ the bot in guilds
  /** Pauses the guild's open campaigns not paused yet; their ids. */
  pauseGuildCampaigns(guildId: string, at: number): Promise<string[]>;
  /** Resumes the guild's paused campaigns; their ids. */
  resumeGuildCampaigns(guildId: string): Promise<string[]>;
  /** Invite code and link of every campaign of the guild. */
  listGuildInvites(guildId: string): Promise<{ code: string | null; link: string }[]>;
  /** Guild and pause state of every open bot campaign (distinct). */
  listOpenCampaignGuilds(): Promise<{ guildId: string | null; removedAt: number | null }[]>;
  /** Which of these guilds have a paused campaign. */
  listPausedGuilds(guildIds: string[]): Promise<string[]>;
  /** Whether an open campaign of the guild has no slot left. */
  hasFullCampaign(guildId: string): Promise<boolean>;

  // ------------------------------------------------------------ reconciliation
  /** Paid, present joins of bot campaigns verified at or after `since`. */
  listInStayJoins(since: number): Promise<InStayJoin[]>;
  /** (guild, member) pairs with a pending join of an open bot campaign recorded at or after `since`. */
  listPendingMembers(since: number): Promise<{ guildId: string | null; discordUserId: string }[]>;
  /** Guilds where this member has a pending join of an open bot campaign recorded at or after `since`, newest first. */
  listPendingGuildsOfMember(userId: string, since: number): Promise<string[]>;

  // ------------------------------------------------------------ slash commands
  /** Name and kind of a campaign (wording of replies). */
  findCampaignSummary(campaignId: string): Promise<{ name: string; kind: CampaignKind } | undefined>;
}

export function botRepo(h: DbHandle): BotRepository {
  return h.kind === 'sqlite' ? new SqliteBotRepository(h.db) : new PgBotRepository(h.db);
}

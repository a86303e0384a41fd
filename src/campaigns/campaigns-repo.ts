import type { DbHandle } from '../db/engine.ts';
import type { Server, Transaction } from '../db/schema.ts';
import { SqliteCampaignsRepository } from './campaigns-repo.sqlite.ts';
import { PgCampaignsRepository } from './campaigns-repo.pg.ts';

// Campaigns (decision 028 step 2C, the guide in decision 034): what src/campaigns needs from the
// database, as one async interface with a SQLite and a PostgreSQL implementation, held together by
// campaigns-repo.test.ts on both engines. The rules (who may, how much it costs, what a refusal says)
// stay in the services above it; the exactly-once rules are said in the statements that write.

/** A campaign row as submit writes it. */
export interface NewCampaign {
  ownerId: string;
  name: string;
  inviteLink: string;
  inviteCode: string;
  kind: Server['kind'];
  serverId: string | null;
  inviteGuildId: string;
  serverIcon: string | null;
  coinReward: number;
  membersRemaining: number;
  initialMemberSlots: number;
  createdAt: number;
  /** Targeting (issue 31 item 2); absent or null: anyone the platform allows. */
  minAccountAgeDays?: number | null;
  targetLanguage?: string | null;
}

/** The state promote decided on: the update applies only if the row still has it. */
export type PromoteSnapshot = Pick<Server, 'id' | 'membersRemaining' | 'featuredRemaining' | 'isFeatured'>;

export interface InviteRecheckRow {
  id: string;
  inviteCode: string | null;
  inviteLink: string;
  guildId: string | null;
  inviteValid: boolean;
}

export interface CampaignsRepository {
  /** The owner's campaign in any state (canceled, unpromoted intent), or undefined — also for another user's. */
  findOwn(ownerId: string, id: string): Promise<Server | undefined>;
  insert(campaign: NewCampaign): Promise<Server>;
  /** Whether another active (featured slots left, not canceled) campaign of this guild is featured. */
  isGuildFeaturedElsewhere(guildId: string, exceptId?: string): Promise<boolean>;
  /**
   * Serialises "feature a campaign of this guild" until the end of the transaction, so the check
   * above and the write that follows are one step (PostgreSQL: a transaction-level advisory lock;
   * SQLite: nothing, the store's writer is serialised already). Call it inside a transaction.
   */
  lockGuildForFeaturing(guildId: string): Promise<void>;
  /**
   * Makes the campaign featured with `slots` more featured slots at `rewardCents`, only if it still
   * has the snapshot's slots and featured state; undefined when another writer changed it first.
   */
  promote(
    snapshot: PromoteSnapshot,
    slots: number,
    rewardCents: number,
    now: number,
  ): Promise<Server | undefined>;
  /**
   * Adds `slots` member slots (at the regular/no-bot reward) to the owner's campaign that is not canceled
   * and is not an unpromoted featured intent; clears the completion-DM state, so the campaign completes
   * (and tells its owner) again. One relative UPDATE: concurrent top-ups each add theirs. Undefined when
   * no such campaign.
   */
  topUp(ownerId: string, id: string, slots: number): Promise<Server | undefined>;
  /** Cancels the owner's campaign (no slots left); undefined when it is not theirs or already canceled. */
  cancel(ownerId: string, id: string, now: number): Promise<Server | undefined>;
  /** Sets a new invite on the owner's campaign that is not canceled (and its guild when it had none). */
  replaceInvite(
    ownerId: string,
    id: string,
    invite: { link: string; code: string; guildId?: string },
  ): Promise<Server | undefined>;
  /** Active campaigns (slots left, not canceled) with what the invite recheck needs. */
  listForInviteRecheck(): Promise<InviteRecheckRow[]>;
  /**
   * Sets invite_valid while the row still has `checkedLink` (the invite Discord was asked about); false
   * when it had that value already (another run changed it first) or the invite was replaced meanwhile.
   */
  setInviteValid(id: string, valid: boolean, checkedLink: string): Promise<boolean>;
  /** Deletes unpromoted featured intents (0 slots, never featured) created at or before `cutoff`. */
  pruneUnpromotedIntents(cutoff: number): Promise<number>;
  /** The owner's campaigns with slots left, not canceled, newest first. */
  listActiveByOwner(ownerId: string): Promise<Server[]>;
  /** Every campaign row of the owner, newest first. */
  listByOwner(ownerId: string): Promise<Server[]>;
  /** Active featured campaigns (featured slots left, not canceled) of these guilds, whoever owns them. */
  listActiveFeaturedInGuilds(guildIds: string[]): Promise<{ id: string; guildId: string | null }[]>;
  /** Joins that count for the owner per campaign: verified ones, or for no-bot campaigns the rewarded ones. */
  countJoins(ids: string[]): Promise<Map<string, number>>;
  /** Members penalised for leaving early, per campaign. */
  countEarlyLeaves(ids: string[]): Promise<Map<string, number>>;

  // The owner's ledger history (GET /api/transactions…): read-only views of the ledger's rows.
  /** Newest first (ties in one millisecond: insertion order on SQLite, id order on PostgreSQL). */
  listTransactions(
    userId: string,
    types: readonly string[] | undefined,
    limit: number,
    offset: number,
  ): Promise<Transaction[]>;
  countTransactions(userId: string, types: readonly string[] | undefined): Promise<number>;
  /** Sum of positive amounts per local day index (floor((createdAt + shift) / dayMs)) since `since`. */
  earningsByDay(
    userId: string,
    shiftMs: number,
    dayMs: number,
    since: number,
  ): Promise<{ day: number; earned: number }[]>;
  /** Lifetime received and taken (as a positive number), in hundredths. */
  transactionTotals(userId: string): Promise<{ earned: number; spent: number }>;
}

export function campaignsRepo(h: DbHandle): CampaignsRepository {
  return h.kind === 'sqlite' ? new SqliteCampaignsRepository(h.db) : new PgCampaignsRepository(h.db);
}

import type { Db } from '../db/client.ts';
import {
  campaignJoins,
  campaigns,
  transactions,
  users,
  type Campaign,
  type CampaignJoin,
} from '../db/schema.ts';
import { and, eq, sql } from 'drizzle-orm';
import {
  campaignJoins as pgCampaignJoins,
  campaigns as pgCampaigns,
  transactions as pgTransactions,
  users as pgUsers,
} from '../db/schema.pg.ts';
import type { User } from '../db/schema.ts';
import { readHandle, type ReadTarget } from '../db/engine.ts';
import type { Transaction } from '../db/schema.ts';
import type { DataStore, DbHandle } from '../db/engine.ts';
import * as ledger from '../ledger/index.ts';

// Test factories that write straight to the database (the campaign-submit API is not what these
// tests are about). Balances only ever change through the ledger, so the invariant holds.

import { CAMPAIGN_KIND_RULES, PROMOTION, type CampaignKind } from '../shared/campaign-kinds.ts';

export type { CampaignKind } from '../shared/campaign-kinds.ts';

export interface CampaignInput {
  ownerId: string;
  kind?: CampaignKind;
  name?: string;
  /** Discord guild id; ignored for no-bot campaigns (always null). */
  guildId?: string;
  inviteLink?: string;
  inviteCode?: string | null;
  guildIcon?: string | null;
  coinRewardCents?: number;
  membersRemaining?: number;
  initialMemberSlots?: number;
  inviteValid?: boolean;
  canceledAt?: number | null;
  createdAt?: number;
  featuredAt?: number | null;
}

let counter = 0;

/** A campaign row as the submit/promote flows would leave it, with test-friendly defaults. */
export function createCampaign(db: Db, input: CampaignInput): Campaign {
  return db.insert(campaigns).values(campaignValues(input)).returning().get();
}

/** A campaign row on either engine (reads committed data). */
export async function readCampaign(store: DataStore, campaignId: string): Promise<Campaign | undefined> {
  const h = store.read;
  if (h.kind === 'sqlite') return h.db.select().from(campaigns).where(eq(campaigns.id, campaignId)).get();
  const [row] = await h.db.select().from(pgCampaigns).where(eq(pgCampaigns.id, campaignId));
  return row;
}

/** A campaign's join rows in insertion order, on either engine. */
export async function readJoins(store: DataStore, campaignId: string): Promise<CampaignJoin[]> {
  const h = store.read;
  if (h.kind === 'sqlite')
    return h.db.select().from(campaignJoins).where(eq(campaignJoins.campaignId, campaignId)).all();
  return h.db
    .select()
    .from(pgCampaignJoins)
    .where(eq(pgCampaignJoins.campaignId, campaignId))
    .orderBy(pgCampaignJoins.joinedAt, sql`xmin::text::bigint, ctid`);
}

/** createCampaign on either engine (suites that run on both: TEST_DB=pg). */
export async function insertCampaign(store: DataStore, input: CampaignInput): Promise<Campaign> {
  const values = campaignValues(input);
  return store.transaction(async (tx) => {
    const [row] =
      tx.kind === 'sqlite'
        ? [tx.db.insert(campaigns).values(values).returning().get()]
        : await tx.db.insert(pgCampaigns).values(values).returning();
    if (!row) throw new Error('insertCampaign: nothing inserted');
    return row;
  });
}

function campaignValues(input: CampaignInput) {
  counter += 1;
  const kind = input.kind ?? 'regular';
  const slots = input.membersRemaining ?? (kind === 'featured' ? PROMOTION.slots : 10);
  const createdAt = input.createdAt ?? Date.UTC(2026, 0, 1) + counter;
  const code = input.inviteCode === undefined ? `test-invite-${counter}` : input.inviteCode;
  return {
    ownerId: input.ownerId,
    name: input.name ?? `Test Server ${counter}`,
    inviteLink: input.inviteLink ?? `https://discord.gg/${code ?? `test-${counter}`}`,
    inviteCode: code,
    kind,
    guildId: kind === 'nobot' ? null : (input.guildId ?? `4000000000000${String(counter).padStart(5, '0')}`),
    guildIcon: input.guildIcon ?? null,
    coinReward: input.coinRewardCents ?? CAMPAIGN_KIND_RULES[kind].rewardCents,
    membersRemaining: slots,
    initialMemberSlots: input.initialMemberSlots ?? slots,
    isFeatured: kind === 'featured',
    featuredRemaining: kind === 'featured' ? slots : 0,
    inviteGuildId:
      kind === 'nobot'
        ? (input.guildId ?? null)
        : (input.guildId ?? `4000000000000${String(counter).padStart(5, '0')}`),
    featuredAt: kind === 'featured' ? (input.featuredAt ?? createdAt) : null,
    inviteValid: input.inviteValid ?? true,
    canceledAt: input.canceledAt ?? null,
    createdAt,
  } satisfies typeof campaigns.$inferInsert;
}

/** The user row for a Discord id (e.g. a TestClient's `user.discordId` → our id). */
export function findUserByDiscordId(db: Db, discordId: string) {
  return db.select().from(users).where(eq(users.discordId, discordId)).get();
}

export function findJoins(db: Db, campaignId: string): CampaignJoin[] {
  return db.select().from(campaignJoins).where(eq(campaignJoins.campaignId, campaignId)).all();
}

export function findCampaign(db: Db, campaignId: string): Campaign | undefined {
  return db.select().from(campaigns).where(eq(campaigns.id, campaignId)).get();
}

export function findCampaignByName(db: Db, name: string): Campaign {
  const found = db.select().from(campaigns).where(eq(campaigns.name, name)).get();
  if (!found) throw new Error(`no campaign named ${name}`);
  return found;
}

// ---------------------------------------------------------------- both engines (decision 028)

let storeCounter = 0;
type NewUser = Partial<typeof users.$inferInsert>;

/** A user with a zero balance on either engine (credit through the ledger facade to give coins). */
export async function insertUser(store: DataStore, overrides: NewUser = {}): Promise<User> {
  storeCounter += 1;
  const values = {
    discordId: `3100000000${String(process.pid % 1000).padStart(3, '0')}${String(storeCounter).padStart(5, '0')}`,
    discordUsername: `user${storeCounter}`,
    createdAt: Date.UTC(2026, 0, 1),
    ...overrides,
  };
  return store.transaction(async (tx) => {
    const [row] =
      tx.kind === 'sqlite'
        ? [tx.db.insert(users).values(values).returning().get()]
        : await tx.db.insert(pgUsers).values(values).returning();
    if (!row) throw new Error('insertUser: nothing inserted');
    return row;
  });
}

/** Credits coins (hundredths) through the ledger facade, as a purchase would, on either engine. */
export async function grantCoins(
  store: DataStore,
  userId: string,
  cents: number,
  now = Date.UTC(2026, 0, 1),
): Promise<void> {
  await ledger.credit(store, { userId, cents, type: 'purchase', description: 'Test coins', now });
}

/** The amounts of a user's ledger rows of one type, oldest first, on either engine (contract tests). */
export async function ledgerAmounts(h: DbHandle, userId: string, type: string): Promise<number[]> {
  const rows =
    h.kind === 'sqlite'
      ? h.db
          .select({ amount: transactions.amount })
          .from(transactions)
          .where(and(eq(transactions.userId, userId), eq(transactions.type, type)))
          .all()
      : await h.db
          .select({ amount: pgTransactions.amount })
          .from(pgTransactions)
          .where(and(eq(pgTransactions.userId, userId), eq(pgTransactions.type, type)));
  return rows.map((r) => r.amount);
}

// Rows of the bot's and the joins' tables on either engine, read through the store's read handle (it
// sees every committed write; tests poll these while the bot writes). Suites that run on both engines
// (TEST_DB=pg) use these instead of ctx.db.

/** One member's join of a campaign, on either engine. */
export async function joinRow(
  target: ReadTarget,
  campaignId: string,
  userId: string,
): Promise<CampaignJoin | undefined> {
  const h = readHandle(target);
  if (h.kind === 'sqlite')
    return h.db
      .select()
      .from(campaignJoins)
      .where(and(eq(campaignJoins.campaignId, campaignId), eq(campaignJoins.userId, userId)))
      .get();
  const [row] = await h.db
    .select()
    .from(pgCampaignJoins)
    .where(and(eq(pgCampaignJoins.campaignId, campaignId), eq(pgCampaignJoins.userId, userId)));
  return row;
}

/** Changes columns of a campaign row, on either engine (what a test sets up that no flow gives). */
export async function updateCampaign(
  store: DataStore,
  campaignId: string,
  set: Partial<typeof campaigns.$inferInsert>,
): Promise<void> {
  await store.transaction(async (tx) => {
    if (tx.kind === 'sqlite') tx.db.update(campaigns).set(set).where(eq(campaigns.id, campaignId)).run();
    else await tx.db.update(pgCampaigns).set(set).where(eq(pgCampaigns.id, campaignId));
  });
}

/** A join row written straight, on either engine (a website join without the API's checks). */
export async function insertJoin(
  store: DataStore,
  values: typeof campaignJoins.$inferInsert,
): Promise<CampaignJoin> {
  return store.transaction(async (tx) => {
    const [row] =
      tx.kind === 'sqlite'
        ? [tx.db.insert(campaignJoins).values(values).returning().get()]
        : await tx.db.insert(pgCampaignJoins).values(values).returning();
    if (!row) throw new Error('insertJoin: nothing inserted');
    return row;
  });
}

/** A user's ledger rows of one type, on either engine (in no promised order). */
export async function ledgerRows(target: ReadTarget, userId: string, type: string): Promise<Transaction[]> {
  const h = readHandle(target);
  if (h.kind === 'sqlite')
    return h.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.userId, userId), eq(transactions.type, type)))
      .all();
  return h.db
    .select()
    .from(pgTransactions)
    .where(and(eq(pgTransactions.userId, userId), eq(pgTransactions.type, type)));
}

/** The user row for a Discord id, on either engine. */
export async function userRowByDiscordId(target: ReadTarget, discordId: string): Promise<User | undefined> {
  const h = readHandle(target);
  if (h.kind === 'sqlite') return h.db.select().from(users).where(eq(users.discordId, discordId)).get();
  const [row] = await h.db.select().from(pgUsers).where(eq(pgUsers.discordId, discordId));
  return row;
}

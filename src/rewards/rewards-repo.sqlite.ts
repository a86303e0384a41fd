import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hourlyRewards, transactions } from '../db/schema.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';
import { LAST_CLAIM_COLUMN, LAST_CLAIM_KEY } from './reward-columns.ts';
import type { RewardRow, RewardsRepository } from './rewards-repo.ts';

export class SqliteRewardsRepository implements RewardsRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<RewardRow | undefined> {
    return this.db.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId)).get();
  }

  async claim(userId: string, type: RewardType, now: number, cutoff: number): Promise<boolean> {
    const statements = claimStatementsFor(this.db)[type];
    statements.ensureRow.run({ id: crypto.randomUUID(), userId });
    return statements.claim.get({ userId, now, cutoff }) !== undefined;
  }

  async dailyClaimTimes(userId: string): Promise<number[]> {
    const rows = this.db
      .select({ at: transactions.createdAt })
      .from(transactions)
      .where(and(eq(transactions.userId, userId), eq(transactions.type, 'daily')))
      .orderBy(asc(transactions.createdAt))
      .all();
    return rows.map((r) => r.at);
  }
}

// The claim is the hottest write: its two statements are prepared once per database handle (the
// store's writer handle is one object for the process, so they are prepared once).
function prepareClaimStatements(db: Db, type: RewardType) {
  const column = LAST_CLAIM_COLUMN[type];
  const userId = sql.placeholder('userId');
  return {
    ensureRow: db
      .insert(hourlyRewards)
      .values({ id: sql.placeholder('id'), userId, lastClaimDate: 0 })
      .onConflictDoNothing({ target: hourlyRewards.userId })
      .prepare(),
    claim: db
      .update(hourlyRewards)
      .set({ [LAST_CLAIM_KEY[type]]: sql.placeholder('now') })
      .where(
        and(eq(hourlyRewards.userId, userId), or(isNull(column), lte(column, sql.placeholder('cutoff')))),
      )
      .returning({ id: hourlyRewards.id })
      .prepare(),
  };
}

type ClaimStatements = Record<RewardType, ReturnType<typeof prepareClaimStatements>>;
const claimStatementCache = new WeakMap<Db, ClaimStatements>();

function claimStatementsFor(db: Db): ClaimStatements {
  let statements = claimStatementCache.get(db);
  if (!statements) {
    statements = {
      regular: prepareClaimStatements(db, 'regular'),
      bonus: prepareClaimStatements(db, 'bonus'),
      daily: prepareClaimStatements(db, 'daily'),
    };
    claimStatementCache.set(db, statements);
  }
  return statements;
}

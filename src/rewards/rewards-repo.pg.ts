import { and, asc, eq, isNull, lte, or } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { hourlyRewards, transactions } from '../db/schema.pg.ts';
import type { RewardType } from '../shared/rewards-schemas.ts';
import { LAST_CLAIM_KEY } from './reward-columns.ts';
import type { RewardRow, RewardsRepository } from './rewards-repo.ts';

const COLUMN = {
  regular: hourlyRewards.lastClaimDate,
  bonus: hourlyRewards.lastBonusClaimDate,
  daily: hourlyRewards.lastDailyClaimDate,
} as const satisfies Record<RewardType, unknown>;

export class PgRewardsRepository implements RewardsRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async find(userId: string): Promise<RewardRow | undefined> {
    const [row] = await this.db.select().from(hourlyRewards).where(eq(hourlyRewards.userId, userId));
    return row;
  }

  async claim(userId: string, type: RewardType, now: number, cutoff: number): Promise<boolean> {
    // One statement: the first claim inserts the row; later ones update it only when the cooldown has
    // passed. A concurrent claim waits on the unique user_id (or the row lock), then PostgreSQL
    // re-checks the WHERE against the row as the first committed it, and updates nothing.
    const column = COLUMN[type];
    const key = LAST_CLAIM_KEY[type];
    const rows = await this.db
      .insert(hourlyRewards)
      .values({ userId, lastClaimDate: 0, [key]: now })
      .onConflictDoUpdate({
        target: hourlyRewards.userId,
        set: { [key]: now },
        setWhere: or(isNull(column), lte(column, cutoff)),
      })
      .returning({ id: hourlyRewards.id });
    return rows.length > 0;
  }

  async dailyClaimTimes(userId: string): Promise<number[]> {
    const rows = await this.db
      .select({ at: transactions.createdAt })
      .from(transactions)
      .where(and(eq(transactions.userId, userId), eq(transactions.type, 'daily')))
      .orderBy(asc(transactions.createdAt));
    return rows.map((r) => Number(r.at));
  }
}

import { desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { transactions } from '../db/schema.ts';
import type { ApiTransaction } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';

export const TRANSACTIONS_LIMIT = 50;

/** GET /api/transactions: the user's latest ledger entries, newest first. */
export function listTransactions(ctx: AppContext, userId: string): ApiTransaction[] {
  return (
    ctx.db
      .select()
      .from(transactions)
      .where(eq(transactions.userId, userId))
      // rowid breaks ties between entries written in the same millisecond (insertion order).
      .orderBy(desc(transactions.createdAt), desc(sql`rowid`))
      .limit(TRANSACTIONS_LIMIT)
      .all()
      .map((t) => ({
        id: t.id,
        userId: t.userId,
        amount: formatCents(t.amount),
        type: t.type,
        description: t.description,
        createdAt: new Date(t.createdAt).toISOString(),
      }))
  );
}

export interface TransactionSummary {
  /** All coins ever received (rewards, bonuses, purchases), 2 decimals. */
  earned: string;
  /** All coins ever taken (campaigns, promotions, penalties, reversals), as a positive amount. */
  spent: string;
}

/** GET /api/transactions/summary: lifetime totals for the Dashboard's Total Coins card. */
export function summarizeTransactions(ctx: AppContext, userId: string): TransactionSummary {
  const row = ctx.db
    .select({
      earned: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} > 0 THEN ${transactions.amount} ELSE 0 END), 0)`,
      spent: sql<number>`COALESCE(SUM(CASE WHEN ${transactions.amount} < 0 THEN -${transactions.amount} ELSE 0 END), 0)`,
    })
    .from(transactions)
    .where(eq(transactions.userId, userId))
    .get();
  return { earned: formatCents(Number(row?.earned ?? 0)), spent: formatCents(Number(row?.spent ?? 0)) };
}

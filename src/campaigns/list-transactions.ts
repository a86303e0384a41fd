import { desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { transactions } from '../db/schema.ts';
import type { ApiTransaction } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';

export const TRANSACTIONS_LIMIT = 50;

/** GET /api/transactions: the user's latest ledger entries, newest first. */
export function listTransactions(ctx: AppContext, userId: string): ApiTransaction[] {
  return ctx.db
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
    }));
}

import { and, count, desc, eq, gt, gte, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { transactions } from '../db/schema.ts';
import type { ApiTransaction } from '../shared/api-types.ts';
import { TRANSACTION_FILTERS, type EarningsDay, type TransactionsQuery } from '../shared/history-schemas.ts';
import { formatCents } from '../shared/money.ts';

export const TRANSACTIONS_LIMIT = 50;

function toApiTransaction(t: typeof transactions.$inferSelect): ApiTransaction {
  return {
    id: t.id,
    userId: t.userId,
    amount: formatCents(t.amount),
    type: t.type,
    description: t.description,
    createdAt: new Date(t.createdAt).toISOString(),
  };
}

/**
 * GET /api/transactions: the user's ledger entries, newest first. Without paging parameters, the
 * latest TRANSACTIONS_LIMIT (the spec's call); with them, one page of the (optionally filtered) history.
 */
export function listTransactions(
  ctx: AppContext,
  userId: string,
  query: TransactionsQuery = {},
): { items: ApiTransaction[]; total: number } {
  const where = query.filter
    ? and(
        eq(transactions.userId, userId),
        inArray(transactions.type, [...TRANSACTION_FILTERS[query.filter].types]),
      )
    : eq(transactions.userId, userId);
  const pageSize = query.pageSize ?? TRANSACTIONS_LIMIT;
  const offset = ((query.page ?? 1) - 1) * pageSize;
  const items = ctx.db
    .select()
    .from(transactions)
    .where(where)
    // rowid breaks ties between entries written in the same millisecond (insertion order).
    .orderBy(desc(transactions.createdAt), desc(sql`rowid`))
    .limit(pageSize)
    .offset(offset)
    .all()
    .map(toApiTransaction);
  const total = ctx.db.select({ n: count() }).from(transactions).where(where).get()?.n ?? 0;
  return { items, total };
}

const DAY_MS = 86_400_000;

/** GET /api/transactions/earnings: coins received per day over the last `days` days (user's time zone). */
export function summarizeEarningsByDay(
  ctx: AppContext,
  userId: string,
  days: number,
  tzOffsetMinutes: number,
): EarningsDay[] {
  const shift = -tzOffsetMinutes * 60_000; // local = UTC + shift
  const todayIndex = Math.floor((ctx.clock.now() + shift) / DAY_MS);
  const firstIndex = todayIndex - days + 1;
  const rows = ctx.db
    .select({
      day: sql<number>`CAST((${transactions.createdAt} + ${shift}) / ${DAY_MS} AS INTEGER)`,
      earned: sql<number>`SUM(${transactions.amount})`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.userId, userId),
        gt(transactions.amount, 0),
        gte(transactions.createdAt, firstIndex * DAY_MS - shift),
      ),
    )
    .groupBy(sql`1`)
    .all();
  const byDay = new Map(rows.map((r) => [Number(r.day), Number(r.earned)]));
  return Array.from({ length: days }, (_, i) => {
    const index = firstIndex + i;
    return {
      date: new Date(index * DAY_MS).toISOString().slice(0, 10),
      earned: formatCents(byDay.get(index) ?? 0),
    };
  });
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

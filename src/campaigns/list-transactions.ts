import type { AppContext } from '../context.ts';
import type { Transaction } from '../db/schema.ts';
import { campaignsRepo } from './campaigns-repo.ts';
import type { ApiTransaction } from '../shared/api-types.ts';
import { TRANSACTION_FILTERS, type EarningsDay, type TransactionsQuery } from '../shared/history-schemas.ts';
import { formatCents } from '../shared/money.ts';

export const TRANSACTIONS_LIMIT = 50;

function toApiTransaction(t: Transaction): ApiTransaction {
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
export async function listTransactions(
  ctx: AppContext,
  userId: string,
  query: TransactionsQuery = {},
): Promise<{ items: ApiTransaction[]; total: number }> {
  const types = query.filter ? TRANSACTION_FILTERS[query.filter].types : undefined;
  const pageSize = query.pageSize ?? TRANSACTIONS_LIMIT;
  const offset = ((query.page ?? 1) - 1) * pageSize;
  const repo = campaignsRepo(ctx.store.read);
  const items = (await repo.listTransactions(userId, types, pageSize, offset)).map(toApiTransaction);
  const total = await repo.countTransactions(userId, types);
  return { items, total };
}

const DAY_MS = 86_400_000;

/** GET /api/transactions/earnings: coins received per day over the last `days` days (user's time zone). */
export async function summarizeEarningsByDay(
  ctx: AppContext,
  userId: string,
  days: number,
  tzOffsetMinutes: number,
): Promise<EarningsDay[]> {
  const shift = -tzOffsetMinutes * 60_000; // local = UTC + shift
  const todayIndex = Math.floor((ctx.clock.now() + shift) / DAY_MS);
  const firstIndex = todayIndex - days + 1;
  const rows = await campaignsRepo(ctx.store.read).earningsByDay(
    userId,
    shift,
    DAY_MS,
    firstIndex * DAY_MS - shift,
  );
  const byDay = new Map(rows.map((r) => [r.day, r.earned]));
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
export async function summarizeTransactions(ctx: AppContext, userId: string): Promise<TransactionSummary> {
  const { earned, spent } = await campaignsRepo(ctx.store.read).transactionTotals(userId);
  return { earned: formatCents(earned), spent: formatCents(spent) };
}

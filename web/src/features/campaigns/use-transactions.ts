import { useQuery } from '@tanstack/react-query';
import type { ApiTransaction } from '@shared/api-types.ts';
import type { ApiTransactionSummary } from '@shared/campaign-schemas.ts';
import { transactionKeys } from '../../lib/query-keys.ts';

/** GET /api/transactions: latest ledger entries, newest first. */
export function useTransactions() {
  return useQuery<ApiTransaction[]>({ queryKey: transactionKeys.recent() });
}

/** GET /api/transactions/summary: lifetime earned / spent. */
export function useTransactionSummary() {
  return useQuery<ApiTransactionSummary>({ queryKey: transactionKeys.summary() });
}

import { useQuery } from '@tanstack/react-query';
import type { ApiTransaction } from '@shared/api-types.ts';
import type { ApiTransactionSummary } from '@shared/campaign-schemas.ts';
import { TRANSACTION_SUMMARY_KEY, TRANSACTIONS_KEY } from './query-keys.ts';

/** GET /api/transactions: latest ledger entries, newest first. */
export function useTransactions() {
  return useQuery<ApiTransaction[]>({ queryKey: TRANSACTIONS_KEY });
}

/** GET /api/transactions/summary: lifetime earned / spent. */
export function useTransactionSummary() {
  return useQuery<ApiTransactionSummary>({ queryKey: TRANSACTION_SUMMARY_KEY });
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiTransaction } from '@shared/api-types.ts';
import { HISTORY_PAGE_SIZE, type TransactionFilter } from '@shared/history-schemas.ts';
import { apiRequest } from '../../lib/api.ts';
import { transactionKeys } from '../../lib/query-keys.ts';

export interface HistoryPage {
  items: ApiTransaction[];
  total: number;
  pageCount: number;
}

/** GET /api/transactions?page&pageSize&filter: one page of the history; the total comes in X-Total-Count. */
export function useTransactionHistory(filter: TransactionFilter | 'all', page: number) {
  return useQuery<HistoryPage>({
    queryKey: transactionKeys.history(filter, page),
    queryFn: async () => {
      const params = new URLSearchParams({ page: String(page), pageSize: String(HISTORY_PAGE_SIZE) });
      if (filter !== 'all') params.set('filter', filter);
      const res = await apiRequest('GET', `/api/transactions?${params.toString()}`);
      const items = (await res.json()) as ApiTransaction[];
      const total = Number(res.headers.get('X-Total-Count') ?? items.length);
      return { items, total, pageCount: Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE)) };
    },
    // Keep the current page on screen while the next one loads: no jump, no flash of a skeleton.
    placeholderData: keepPreviousData,
  });
}

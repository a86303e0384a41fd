import type { TransactionFilter } from '@shared/history-schemas.ts';

// Under the ['/api/transactions'] prefix, so every coin-moving mutation's refetch covers them too.
export const historyKeys = {
  page: (filter: TransactionFilter | 'all', page: number) =>
    ['/api/transactions', 'history', filter, page] as const,
  earnings: () => ['/api/transactions', 'earnings'] as const,
};

import { useQuery } from '@tanstack/react-query';
import type { EarningsDay } from '@shared/history-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { transactionKeys } from '../../lib/query-keys.ts';

/** GET /api/transactions/earnings: coins received per day over the last 30 days, in the browser's time zone. */
export function useEarnings() {
  return useQuery<EarningsDay[]>({
    queryKey: transactionKeys.earnings(),
    queryFn: () =>
      apiJson<EarningsDay[]>('GET', `/api/transactions/earnings?tzOffset=${new Date().getTimezoneOffset()}`),
  });
}

import { useQuery } from '@tanstack/react-query';
import type { EarningsDay } from '@shared/history-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { historyKeys } from './query-keys.ts';

/** GET /api/transactions/earnings: coins received per day over the last 30 days, in the browser's time zone. */
export function useEarnings() {
  return useQuery<EarningsDay[]>({
    queryKey: historyKeys.earnings(),
    queryFn: () =>
      apiJson<EarningsDay[]>('GET', `/api/transactions/earnings?tzOffset=${new Date().getTimezoneOffset()}`),
  });
}

import type { QueryClient } from '@tanstack/react-query';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';

/** After a purchase: refetch the balance (header) and every transactions query (list, summary). */
export function invalidateBalance(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY }),
    queryClient.invalidateQueries({
      predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith('/api/transactions'),
    }),
  ]).then(() => undefined);
}

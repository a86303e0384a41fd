import type { QueryClient } from '@tanstack/react-query';
import { AFTER_PURCHASE_KEYS } from '../../lib/query-keys.ts';
import { invalidateKeys } from '../../lib/refetch-after-change.ts';

/** After a purchase: refetch the balance (header) and every transactions query (list, summary, history). */
export function invalidateBalance(queryClient: QueryClient): Promise<void> {
  return invalidateKeys(queryClient, AFTER_PURCHASE_KEYS);
}

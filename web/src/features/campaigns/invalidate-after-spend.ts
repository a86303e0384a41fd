import type { QueryClient } from '@tanstack/react-query';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

/** After any spend (submit, promote, cancel): everything docs/spec/product-spec.md §7 lists, plus the ledger and My Servers. */
export function invalidateAfterSpend(queryClient: QueryClient): Promise<void> {
  return refetchAfterChange(queryClient);
}

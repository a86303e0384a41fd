import type { QueryClient } from '@tanstack/react-query';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

/**
 * After a join or a no-bot claim (docs/spec/product-spec.md §7). `keepServers` leaves the server lists alone (a no-bot card
 * stays visible until its reward is claimed; the claim then refetches them).
 */
export function invalidateAfterJoin(queryClient: QueryClient, { keepServers = false } = {}): Promise<void> {
  return refetchAfterChange(queryClient, { keepServerLists: keepServers });
}

import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { ACCOUNT_DATA_KEYS, AFTER_CHANGE_KEYS } from './query-keys.ts';

/** Invalidates each key (and every key it prefixes); resolves once the active ones refetched. */
export function invalidateKeys(queryClient: QueryClient, keys: readonly QueryKey[]): Promise<void> {
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}

/**
 * Refetches everything a coin-moving mutation can change. `keepServerLists` leaves the Discover lists
 * alone (a no-bot card stays visible until its reward is claimed).
 */
export function refetchAfterChange(
  queryClient: QueryClient,
  { keepServerLists = false }: { keepServerLists?: boolean } = {},
): Promise<void> {
  return invalidateKeys(queryClient, keepServerLists ? ACCOUNT_DATA_KEYS : AFTER_CHANGE_KEYS);
}

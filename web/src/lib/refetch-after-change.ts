import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { AUTH_USER_KEY } from './use-auth.ts';

/** Prefix of both Discover lists (['/api/servers'] and ['/api/servers', 'featured']). */
const SERVER_LISTS_KEY: QueryKey = ['/api/servers'];

// Spec §7: after join, claim, complete, promote, submit and reward claims the user, server, social,
// campaign and hourly data are refetched. The transaction list and the Dashboard's summary and
// "My Servers" change with the same credits and debits, so they are refetched too.
const ACCOUNT_KEYS: readonly QueryKey[] = [
  AUTH_USER_KEY,
  ['/api/servers/mine'],
  ['/api/social'],
  ['/api/campaigns'],
  ['/api/hourly'],
  ['/api/transactions'],
  ['/api/transactions/summary'],
];

/**
 * Refetches everything a coin-moving mutation can change. `keepServerLists` leaves the Discover lists
 * alone (a no-bot card stays visible until its reward is claimed).
 */
export function refetchAfterChange(
  queryClient: QueryClient,
  { keepServerLists = false }: { keepServerLists?: boolean } = {},
): Promise<void> {
  const keys = keepServerLists ? ACCOUNT_KEYS : [SERVER_LISTS_KEY, ...ACCOUNT_KEYS];
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))).then(
    () => undefined,
  );
}

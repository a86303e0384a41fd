import type { QueryClient } from '@tanstack/react-query';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { SERVERS_KEY } from './use-servers.ts';

// Spec §7: after a join or claim the user, server, social, campaign, hourly and transaction data are refetched.
const OTHER_KEYS = [
  AUTH_USER_KEY,
  ['/api/transactions'],
  ['/api/campaigns'],
  ['/api/social'],
  ['/api/hourly'],
] as const;

/** `keepServers` leaves the server lists alone (a no-bot card stays visible until its reward is claimed). */
export function invalidateAfterJoin(queryClient: QueryClient, { keepServers = false } = {}): Promise<void[]> {
  const keys = keepServers ? OTHER_KEYS : [SERVERS_KEY, ...OTHER_KEYS];
  return Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

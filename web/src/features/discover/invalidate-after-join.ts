import type { QueryClient } from '@tanstack/react-query';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';
import { SERVERS_KEY } from './use-servers.ts';

// Spec §7: after a join or claim the user, server, social, campaign, hourly and transaction data are refetched.
const KEYS = [AUTH_USER_KEY, SERVERS_KEY, ['/api/transactions'], ['/api/campaigns'], ['/api/social'], ['/api/hourly']] as const;

export function invalidateAfterJoin(queryClient: QueryClient): Promise<void[]> {
  return Promise.all(KEYS.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

import type { QueryClient } from '@tanstack/react-query';
import { AUTH_USER_KEY } from '../../lib/use-auth.ts';

export const CAMPAIGNS_KEY = ['/api/campaigns'] as const;
export const MY_SERVERS_KEY = ['/api/servers/mine'] as const;
export const TRANSACTIONS_KEY = ['/api/transactions'] as const;
export const TRANSACTION_SUMMARY_KEY = ['/api/transactions/summary'] as const;
export const SERVERS_KEY = ['/api/servers'] as const;
export const FEATURED_SERVERS_KEY = ['/api/servers/featured'] as const;
export const BOT_INVITE_KEY = ['/api/bot/invite'] as const;

/** After any spend (submit, promote, cancel): balance, Discover lists, campaigns, transactions, my servers. */
export function invalidateAfterSpend(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    [
      AUTH_USER_KEY,
      SERVERS_KEY,
      FEATURED_SERVERS_KEY,
      CAMPAIGNS_KEY,
      TRANSACTIONS_KEY,
      TRANSACTION_SUMMARY_KEY,
      MY_SERVERS_KEY,
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}

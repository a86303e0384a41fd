import type { QueryClient } from '@tanstack/react-query';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

export const CAMPAIGNS_KEY = ['/api/campaigns'] as const;
export const MY_SERVERS_KEY = ['/api/servers/mine'] as const;
export const TRANSACTIONS_KEY = ['/api/transactions'] as const;
export const TRANSACTION_SUMMARY_KEY = ['/api/transactions/summary'] as const;
export const BOT_INVITE_KEY = ['/api/bot/invite'] as const;

/** After any spend (submit, promote, cancel): everything spec §7 lists, plus transactions and my servers. */
export function invalidateAfterSpend(queryClient: QueryClient): Promise<void> {
  return refetchAfterChange(queryClient);
}

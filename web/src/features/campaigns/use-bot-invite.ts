import { useQuery } from '@tanstack/react-query';
import type { BotInviteResponse } from '@shared/campaign-schemas.ts';
import { campaignKeys } from '../../lib/query-keys.ts';

/** GET /api/bot/invite: the URL that adds our bot to a server. */
export function useBotInvite() {
  return useQuery<BotInviteResponse>({
    queryKey: campaignKeys.botInvite(),
  });
}

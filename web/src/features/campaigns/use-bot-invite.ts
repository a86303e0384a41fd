import { useQuery } from '@tanstack/react-query';
import type { BotInviteResponse } from '@shared/campaign-schemas.ts';
import { BOT_INVITE_KEY } from './query-keys.ts';

/** GET /api/bot/invite: the URL that adds our bot to a server. */
export function useBotInvite() {
  return useQuery<BotInviteResponse>({
    queryKey: BOT_INVITE_KEY,
  });
}

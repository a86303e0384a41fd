import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import type { JoinServerResponse } from '@shared/join-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { invalidateAfterJoin } from './invalidate-after-join.ts';
import { noteInviteOpened } from '../joins/check-on-return.ts';

/**
 * POST /api/servers/:id/join: records a pending join and returns the invite link to open.
 * After a successful no-bot join the server lists are refetched by the claim instead, so the card
 * stays on screen (as "Claiming...") until the reward arrives.
 */
export function useJoinServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (server: ApiDiscoverServer) =>
      apiJson<JoinServerResponse>('POST', `/api/servers/${encodeURIComponent(server.id)}/join`),
    onSuccess: (_data, server) => {
      if (server.serverId !== null) noteInviteOpened();
    },
    onSettled: (_data, error, server) =>
      invalidateAfterJoin(queryClient, { keepServers: !error && server.serverId === null }),
  });
}

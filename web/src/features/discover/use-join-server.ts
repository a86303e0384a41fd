import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import type { JoinServerResponse } from '@shared/join-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { invalidateAfterJoin } from './invalidate-after-join.ts';

/** POST /api/servers/:id/join: records a pending join and returns the invite link to open. */
export function useJoinServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (server: ApiServer) =>
      apiJson<JoinServerResponse>('POST', `/api/servers/${encodeURIComponent(server.id)}/join`),
    onSettled: () => invalidateAfterJoin(queryClient),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiJoin } from '@shared/api-types.ts';
import type { ClaimNoBotResponse, JoinServerResponse } from '@shared/join-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';
import { noteInviteOpened } from './check-on-return.ts';

// My Joins is part of the after-change set, so one refetch covers the list too.
const refetch = (queryClient: ReturnType<typeof useQueryClient>) => refetchAfterChange(queryClient);

/** Joins again (POST /api/servers/:id/join) a pending or expired join; returns the invite to open. */
export function useRetryJoin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (join: ApiJoin) =>
      apiJson<JoinServerResponse>('POST', `/api/servers/${encodeURIComponent(join.campaignId)}/join`),
    onSuccess: () => noteInviteOpened(),
    onSettled: () => refetch(queryClient),
  });
}

/** Claims a no-bot join's reward now (POST /api/servers/:id/claim-nobot). */
export function useClaimJoin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (join: ApiJoin) =>
      apiJson<ClaimNoBotResponse>('POST', `/api/servers/${encodeURIComponent(join.campaignId)}/claim-nobot`),
    onSettled: () => refetch(queryClient),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClaimNoBotResponse } from '@shared/join-schemas.ts';
import { apiJson } from '../../lib/api.ts';
import { markClaimedHere } from '../../lib/claimed-here.ts';
import { invalidateAfterJoin } from './invalidate-after-join.ts';

/** Claim on a Discover card (POST /api/servers/:id/claim-nobot): the member accepted the invite. */
export function useClaimNoBot() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (serverId: string) => {
      const res = await apiJson<ClaimNoBotResponse>(
        'POST',
        `/api/servers/${encodeURIComponent(serverId)}/claim-nobot`,
      );
      markClaimedHere(serverId);
      return res;
    },
    onSettled: () => invalidateAfterJoin(queryClient),
  });
}

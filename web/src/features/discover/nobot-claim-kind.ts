import type { ApiJoin } from '@shared/api-types.ts';
import type { ClaimNoBotResponse } from '@shared/join-schemas.ts';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import type { ClaimKind } from '../../lib/delayed-claims.ts';
import { joinKeys } from '../../lib/query-keys.ts';
import { queryClient } from '../../lib/query-client.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';
import { toast } from '../../lib/toaster.tsx';
import { markClaimedHere } from '../../lib/claimed-here.ts';

/** A no-bot join still worth claiming: joined, not paid yet, and the campaign still running. */
function claimable(join: ApiJoin): boolean {
  return join.noBot && join.state === 'waiting' && (join.canClaim || join.canRetry);
}

/** The no-bot join reward (spec §4): claimed 10 s after the join, on whatever page is open then. */
export const nobotClaimKind: ClaimKind = {
  storagePrefix: 'coinsync:pending-nobot-claims:',
  idField: 'serverId',
  delayMs: NOBOT_CLAIM_DELAY_MS,
  async stillOpen(ids) {
    // Fresh from the server: a cancelled campaign or an already paid join is dropped, never claimed.
    const joins = await queryClient.fetchQuery<ApiJoin[]>({ queryKey: joinKeys.list(), staleTime: 0 });
    const open = new Set(joins.filter(claimable).map((j) => j.campaignId));
    return new Set(ids.filter((id) => open.has(id)));
  },
  async claim(serverId) {
    const res = await apiJson<ClaimNoBotResponse>(
      'POST',
      `/api/servers/${encodeURIComponent(serverId)}/claim-nobot`,
    );
    markClaimedHere(serverId);
    return res;
  },
  silentStatuses: [404],
  onEarned(earned) {
    void refetchAfterChange(queryClient);
    toast({ title: 'Coins Earned!', description: `+${earned} coins added to your balance` });
  },
  onFailed(error) {
    void refetchAfterChange(queryClient);
    toast({
      title: 'Claim Failed',
      description: errorMessage(
        error,
        'Failed to claim coins. The reward will retry when you refresh the page.',
      ),
      variant: 'destructive',
    });
  },
  onDropped() {
    void refetchAfterChange(queryClient);
  },
};

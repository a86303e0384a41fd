import type { ApiJoin } from '@shared/api-types.ts';
import type { ClaimNoBotResponse } from '@shared/join-schemas.ts';
import {
  NOBOT_CLAIM_DELAY_MS,
  NOBOT_NOT_YET_RETRIES,
  NOBOT_NOT_YET_RETRY_MS,
  isNotInGuildYetMessage,
} from '@shared/join-constants.ts';
import { ApiError, apiJson, errorMessage, errorStatus } from '../../lib/api.ts';
import type { ClaimKind } from '../../lib/delayed-claims.ts';
import { formatAmount } from '../../lib/format.ts';
import { i18n } from '../../lib/i18n.ts';
import { joinKeys } from '../../lib/query-keys.ts';
import { queryClient } from '../../lib/query-client.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';
import { toast } from '../../lib/toaster.tsx';
import { markClaimedHere } from '../../lib/claimed-here.ts';
import { myJoinsAction } from './go-to-my-joins.ts';

/** A no-bot join still worth claiming: joined, not paid yet, and the campaign still running. */
function claimable(join: ApiJoin): boolean {
  return join.noBot && join.state === 'waiting' && (join.canClaim || join.canRetry);
}

/** The no-bot join reward (docs/spec/product-spec.md §4): claimed 10 s after the join, on whatever page is open then. */
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
  // Not in the guild yet (the invite not accepted yet, or Discord's list a moment behind): the card says
  // "Accept the invite, then Claim" and the claim is tried again quietly for two minutes.
  notYet: (error) =>
    errorStatus(error) === 409 && error instanceof ApiError && isNotInGuildYetMessage(error.serverMessage),
  notYetRetryMs: NOBOT_NOT_YET_RETRY_MS,
  maxNotYetRetries: NOBOT_NOT_YET_RETRIES,
  onEarned(earned) {
    void refetchAfterChange(queryClient);
    toast({
      title: i18n.t('joins.earned'),
      description: i18n.t('rewards.added', { coins: formatAmount(earned) }),
      variant: 'success',
    });
  },
  onFailed(error) {
    void refetchAfterChange(queryClient);
    toast({
      title: i18n.t('joins.claimFailed'),
      description: errorMessage(error, i18n.t('joins.claimRetryText')),
      variant: 'destructive',
      action: myJoinsAction(),
    });
  },
  onDropped() {
    void refetchAfterChange(queryClient);
  },
};

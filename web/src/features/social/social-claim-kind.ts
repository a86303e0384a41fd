import type { ApiSocialTask } from '@shared/api-types.ts';
import { SOCIAL_CLAIM_DELAY_MS } from '@shared/social-constants.ts';
import type { CompleteSocialTaskResponse, StartSocialTaskResponse } from '@shared/social-schemas.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import type { ClaimKind } from '../../lib/delayed-claims.ts';
import { socialKeys } from '../../lib/query-keys.ts';
import { queryClient } from '../../lib/query-client.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';
import { toast } from '../../lib/toaster.tsx';
import { i18n, currentLocale } from '../../lib/i18n.ts';
import { formatMoneyText } from '@shared/i18n/index.ts';

/** POST /api/social/:taskId/start: the server notes when the link was opened (first start wins). */
export function startSocialTask(taskId: string): Promise<StartSocialTaskResponse> {
  return apiJson<StartSocialTaskResponse>('POST', `/api/social/${encodeURIComponent(taskId)}/start`);
}

/** Social tasks (docs/spec/product-spec.md §4): completed 15 s after the link was opened, on whatever page is open then. */
export const socialClaimKind: ClaimKind = {
  storagePrefix: 'coinsync:pending-social-claims:',
  idField: 'taskId',
  delayMs: SOCIAL_CLAIM_DELAY_MS,
  async stillOpen(ids) {
    // Fresh list (docs/spec/product-spec.md §7: never from cache): a removed or completed task is dropped, never claimed.
    // Fetching through the query cache also refreshes the Socials page if it is open.
    const tasks = await queryClient.fetchQuery<ApiSocialTask[]>({
      queryKey: socialKeys.list(),
      staleTime: 0,
    });
    const open = new Set(tasks.filter((t) => !t.completed).map((t) => t.id));
    return new Set(ids.filter((id) => open.has(id)));
  },
  claim: (taskId) =>
    apiJson<CompleteSocialTaskResponse>('POST', `/api/social/${encodeURIComponent(taskId)}/complete`),
  // 404: removed meanwhile; 409: already completed (another tab). Nothing to say, just show fresh data.
  silentStatuses: [404, 409],
  onEarned(earned) {
    void refetchAfterChange(queryClient);
    toast({
      title: i18n.t('social.completed'),
      description: i18n.t('rewards.added', { coins: formatMoneyText(earned, currentLocale()) }),
      variant: 'success',
    });
  },
  onFailed(error) {
    toast({
      title: i18n.t('common.error'),
      description: errorMessage(error, i18n.t('social.completeFailed')),
      variant: 'destructive',
    });
  },
  onDropped() {
    void refetchAfterChange(queryClient);
  },
};

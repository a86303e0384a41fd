import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';
import { i18n } from '../../lib/i18n.ts';

/** POST /api/campaigns/:id/top-up { members }: more member slots at 1 coin each. */
export function useTopUp(options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { campaignId: string; members: number }) =>
      apiJson<ApiServer>('POST', `/api/campaigns/${encodeURIComponent(input.campaignId)}/top-up`, {
        members: input.members,
      }),
    onSuccess: async (campaign, input) => {
      toast({
        title: i18n.t('campaigns.topUp.done'),
        description: i18n.t('campaigns.topUp.doneText', {
          name: campaign.name,
          members: input.members,
          remaining: campaign.membersRemaining,
        }),
      });
      options.onSuccess?.();
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('campaigns.topUp.failed')),
        variant: 'destructive',
      });
    },
  });
}

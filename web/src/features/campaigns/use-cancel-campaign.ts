import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';
import { i18n } from '../../lib/i18n.ts';

/** DELETE /api/campaigns/:id: irreversible, nothing refunded. */
export function useCancelCampaign(options: { onSuccess?: (campaignId: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (campaignId: string) =>
      apiRequest('DELETE', `/api/campaigns/${encodeURIComponent(campaignId)}`),
    onSuccess: async (_res, campaignId) => {
      toast({
        title: i18n.t('campaigns.cancel.done'),
        description: i18n.t('campaigns.cancel.doneText'),
        variant: 'success',
      });
      options.onSuccess?.(campaignId);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('campaigns.cancel.failed')),
        variant: 'destructive',
      });
    },
  });
}

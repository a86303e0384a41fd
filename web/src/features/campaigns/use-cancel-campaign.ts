import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** DELETE /api/campaigns/:id: irreversible, nothing refunded. */
export function useCancelCampaign(options: { onSuccess?: (campaignId: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (campaignId: string) =>
      apiRequest('DELETE', `/api/campaigns/${encodeURIComponent(campaignId)}`),
    onSuccess: async (_res, campaignId) => {
      toast({
        title: 'Campaign Canceled',
        description: 'Your campaign has been canceled successfully',
        variant: 'success',
      });
      options.onSuccess?.(campaignId);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to cancel campaign'),
        variant: 'destructive',
      });
    },
  });
}

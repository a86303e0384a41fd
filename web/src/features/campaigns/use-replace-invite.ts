import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorMessage } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** POST /api/campaigns/:id/invite: a new invite (same server) for a campaign whose invite died. */
export function useReplaceInvite(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (inviteLink: string) =>
      apiRequest('POST', `/api/campaigns/${encodeURIComponent(campaignId)}/invite`, { inviteLink }),
    onSuccess: async () => {
      toast({
        title: i18n.t('submit.expired.updated'),
        description: i18n.t('submit.expired.updatedText'),
        variant: 'success',
      });
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('submit.expired.updateFailed')),
        variant: 'destructive',
      });
    },
  });
}

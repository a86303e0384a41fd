import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { i18n } from '../../lib/i18n.ts';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** POST /api/servers/:id/promote (no body): 100 coins for 100 featured member slots. */
export function usePromoteServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: string) =>
      apiJson<ApiServer>('POST', `/api/servers/${encodeURIComponent(serverId)}/promote`),
    onSuccess: async () => {
      toast({
        title: i18n.t('campaigns.promoteToast.done'),
        description: i18n.t('campaigns.promoteToast.doneText'),
        variant: 'success',
      });
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('campaigns.promoteToast.failed')),
        variant: 'destructive',
      });
    },
  });
}

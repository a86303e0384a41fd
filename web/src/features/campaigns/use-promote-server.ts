import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

/** POST /api/servers/:id/promote (no body): 100 coins for 100 featured member slots. */
export function usePromoteServer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (serverId: string) =>
      apiJson<ApiServer>('POST', `/api/servers/${encodeURIComponent(serverId)}/promote`),
    onSuccess: async () => {
      toast({
        title: 'Server Promoted!',
        description: 'Your server is now featured for 100 members',
        variant: 'success',
      });
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to promote server'),
        variant: 'destructive',
      });
    },
  });
}

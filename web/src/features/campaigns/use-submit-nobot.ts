import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

import type { TargetingInput } from '@shared/targeting.ts';

export interface SubmitNoBotVariables {
  name: string;
  inviteLink: string;
  /** Who may see and join it (issue 31 item 2). */
  targeting?: TargetingInput;
  memberCount: string;
}

/** POST /api/servers/no-bot: listed right away, 1 coin per member, no bot needed. */
export function useSubmitNoBot(options: { onSuccess?: (server: ApiServer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: SubmitNoBotVariables) => apiJson<ApiServer>('POST', '/api/servers/no-bot', vars),
    onSuccess: async (server) => {
      toast({
        title: 'Server Added!',
        description: `Your server is live on the discover page with ${server.initialMemberSlots} member(s).`,
        variant: 'success',
      });
      options.onSuccess?.(server);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: 'Error',
        description: errorMessage(err, 'Failed to submit request'),
        variant: 'destructive',
      });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: SubmitNoBotVariables) => apiJson<ApiServer>('POST', '/api/servers/no-bot', vars),
    onSuccess: async (server) => {
      toast({
        title: t('submit.toast.added'),
        description: t('submit.toast.addedText', { members: server.initialMemberSlots }),
        variant: 'success',
      });
      options.onSuccess?.(server);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      toast({
        title: t('common.error'),
        description: errorMessage(err, t('submit.toast.failedRequest')),
        variant: 'destructive',
      });
    },
  });
}

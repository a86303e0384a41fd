import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { useTranslation } from 'react-i18next';
import { botMissingInviteUrl } from './bot-missing.ts';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';

import type { TargetingInput } from '@shared/targeting.ts';

export interface SubmitServerVariables {
  name: string;
  inviteLink: string;
  /** Who may see and join it (issue 31 item 2). */
  targeting?: TargetingInput;
  /** Coins to spend, as typed (the API rounds down: 1 coin = 1 member). */
  coinReward: string;
}

/** POST /api/servers: a regular campaign. `onBotMissing` gets the bot invite URL when the bot is absent. */
export function useSubmitServer(
  options: { onSuccess?: (server: ApiServer) => void; onBotMissing?: (inviteUrl: string) => void } = {},
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: SubmitServerVariables) => apiJson<ApiServer>('POST', '/api/servers', vars),
    onSuccess: async (server) => {
      toast({
        title: t('submit.toast.submitted'),
        description: t('submit.toast.submittedText', { members: server.initialMemberSlots }),
        variant: 'success',
      });
      options.onSuccess?.(server);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      const inviteUrl = botMissingInviteUrl(err);
      if (inviteUrl) options.onBotMissing?.(inviteUrl);
      toast({
        title: t('common.error'),
        description: errorMessage(err, t('submit.toast.failedSubmit')),
        variant: 'destructive',
      });
    },
  });
}

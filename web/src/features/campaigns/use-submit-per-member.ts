import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { useTranslation } from 'react-i18next';
import { botMissingInviteUrl } from './bot-missing.ts';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';
import type { TargetingInput } from '@shared/targeting.ts';

export interface SubmitPerMemberVariables {
  name: string;
  inviteLink: string;
  /** Who may see and join it (issue 31 item 2). */
  targeting?: TargetingInput;
  /** Regular: coins to spend, as typed (the API rounds down: 1 coin = 1 member). */
  coinReward?: string;
  /** No-bot: the number of members, as typed. */
  memberCount?: string;
}

/** Where each kind paid per member is submitted, and what its toasts say. */
const CALLS = {
  // A regular campaign; the API refuses it when our bot is not in the server.
  regular: {
    path: '/api/servers',
    addedKey: 'submit.toast.submitted',
    addedDetailKey: 'submit.toast.submittedText',
    failedKey: 'submit.toast.failedSubmit',
  },
  // Listed right away, 1 coin per member, no bot needed.
  nobot: {
    path: '/api/servers/no-bot',
    addedKey: 'submit.toast.added',
    addedDetailKey: 'submit.toast.addedText',
    failedKey: 'submit.toast.failedRequest',
  },
} as const;

/**
 * POST /api/servers (regular) or /api/servers/no-bot. `onBotMissing` gets the bot invite URL when the
 * bot is absent (regular only).
 */
export function useSubmitPerMember(
  kind: keyof typeof CALLS,
  options: { onSuccess?: (campaign: ApiServer) => void; onBotMissing?: (inviteUrl: string) => void } = {},
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const call = CALLS[kind];
  return useMutation({
    mutationFn: (vars: SubmitPerMemberVariables) => apiJson<ApiServer>('POST', call.path, vars),
    onSuccess: async (campaign) => {
      toast({
        title: t(call.addedKey),
        description: t(call.addedDetailKey, { members: campaign.initialMemberSlots }),
        variant: 'success',
      });
      options.onSuccess?.(campaign);
      await invalidateAfterSpend(queryClient);
    },
    onError: (err) => {
      const inviteUrl = botMissingInviteUrl(err);
      if (inviteUrl) options.onBotMissing?.(inviteUrl);
      toast({
        title: t('common.error'),
        description: errorMessage(err, t(call.failedKey)),
        variant: 'destructive',
      });
    },
  });
}

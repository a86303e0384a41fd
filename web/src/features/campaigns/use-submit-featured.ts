import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { useTranslation } from 'react-i18next';
import { botMissingInviteUrl } from './bot-missing.ts';
import { invalidateAfterSpend } from './invalidate-after-spend.ts';
import type { TargetingInput } from '@shared/targeting.ts';

export interface SubmitFeaturedVariables {
  name: string;
  inviteLink: string;
  /** Who may see and join it (issue 31 item 2): kept when the campaign is promoted. */
  targeting?: TargetingInput;
}

/** Which call of the two-step featured flow failed, so the toast names the right action. */
class FeaturedStepError extends Error {
  constructor(
    readonly step: 'submit' | 'promote',
    readonly original: unknown,
  ) {
    super(original instanceof Error ? original.message : String(original));
  }
}

/** Featured submit (docs/spec/product-spec.md §4): create the server with isFeaturedIntent, then promote it (100 coins). */
export function useSubmitFeatured(
  options: { onSuccess?: (campaign: ApiServer) => void; onBotMissing?: (inviteUrl: string) => void } = {},
) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: SubmitFeaturedVariables) => {
      let created: ApiServer;
      try {
        created = await apiJson<ApiServer>('POST', '/api/servers', {
          ...vars,
          coinReward: '100',
          isFeaturedIntent: true,
        });
      } catch (err) {
        throw new FeaturedStepError('submit', err);
      }
      try {
        return await apiJson<ApiServer>('POST', `/api/servers/${encodeURIComponent(created.id)}/promote`);
      } catch (err) {
        throw new FeaturedStepError('promote', err);
      }
    },
    onSuccess: async (campaign) => {
      toast({
        title: t('submit.toast.promoted'),
        description: t('submit.toast.promotedText', { members: 100 }),
        variant: 'success',
      });
      options.onSuccess?.(campaign);
      await invalidateAfterSpend(queryClient);
    },
    onError: async (err) => {
      const step = err instanceof FeaturedStepError ? err.step : 'submit';
      const original = err instanceof FeaturedStepError ? err.original : err;
      const inviteUrl = botMissingInviteUrl(original);
      if (inviteUrl) options.onBotMissing?.(inviteUrl);
      const fallback = step === 'promote' ? t('submit.toast.failedPromote') : t('submit.toast.failedSubmit');
      toast({
        title: t('common.error'),
        description: errorMessage(original, fallback),
        variant: 'destructive',
      });
      // A server created before a failed promotion shows up on the Dashboard, ready to promote.
      if (step === 'promote') await invalidateAfterSpend(queryClient);
    },
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiNotificationDelivery,
  ApiNotificationSettings,
  NotificationSettingsInput,
} from '@shared/notification-schemas.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { notificationKeys } from '../../lib/query-keys.ts';
import { toast } from '../../lib/toaster.tsx';

const base = (campaignId: string) => `/api/campaigns/${encodeURIComponent(campaignId)}/notifications`;

/** GET /api/campaigns/:id/notifications. */
export function useNotificationSettings(campaignId: string) {
  return useQuery({
    queryKey: notificationKeys.settings(campaignId),
    queryFn: () => apiJson<ApiNotificationSettings>('GET', base(campaignId)),
  });
}

/** GET …/deliveries: asked again every few seconds while a delivery is on its way. */
export function useNotificationDeliveries(campaignId: string) {
  return useQuery({
    queryKey: notificationKeys.deliveries(campaignId),
    queryFn: () => apiJson<ApiNotificationDelivery[]>('GET', `${base(campaignId)}/deliveries`),
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3000 : false),
  });
}

/** PUT /api/campaigns/:id/notifications. The answer may carry a new signing secret (shown once). */
export function useSaveNotificationSettings(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationSettingsInput) =>
      apiJson<ApiNotificationSettings>('PUT', base(campaignId), input),
    onSuccess: (saved) => {
      const { endpointSecret: _shownOnce, ...kept } = saved;
      queryClient.setQueryData(notificationKeys.settings(campaignId), kept);
    },
  });
}

/** POST …/test: one test event to every target, delivered like any other. */
export function useSendTestNotification(campaignId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson<{ targets: string[] }>('POST', `${base(campaignId)}/test`),
    onSuccess: async () => {
      toast({
        title: i18n.t('campaigns.notifications.testSent'),
        description: i18n.t('campaigns.notifications.testSentText'),
      });
      await queryClient.invalidateQueries({ queryKey: notificationKeys.deliveries(campaignId) });
    },
    onError: (err) => {
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('campaigns.notifications.testFailed')),
        variant: 'destructive',
      });
    },
  });
}

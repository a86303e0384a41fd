import {
  NOTIFICATION_EVENTS,
  notificationSettingsSchema,
  type ApiNotificationSettings,
  type NotificationEvent,
  type NotificationSettingsInput,
} from '@shared/notification-schemas.ts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { useSaveNotificationSettings } from './use-notifications.ts';
import { translateSchemaProblem } from './validate.ts';

type FieldName = 'discordWebhookUrl' | 'endpointUrl' | 'form';
type FieldErrors = Partial<Record<FieldName, string>>;

/** The form's state, the request it builds, and Save (or Save with a new signing secret). */
export function useNotificationSettingsForm(campaignId: string, saved: ApiNotificationSettings) {
  const [webhook, setWebhook] = useState('');
  const [removeWebhook, setRemoveWebhook] = useState(false);
  const [endpoint, setEndpoint] = useState(saved.endpointUrl ?? '');
  const [events, setEvents] = useState<Set<NotificationEvent>>(new Set(saved.events));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [secret, setSecret] = useState<string | null>(null);
  const save = useSaveNotificationSettings(campaignId);
  const { t } = useTranslation();

  function input(rotateSecret: boolean): NotificationSettingsInput {
    const next: NotificationSettingsInput = { events: NOTIFICATION_EVENTS.filter((e) => events.has(e)) };
    if (removeWebhook) next.discordWebhookUrl = null;
    else if (webhook.trim()) next.discordWebhookUrl = webhook.trim();
    if (endpoint.trim()) next.endpointUrl = endpoint.trim();
    else if (saved.endpointUrl) next.endpointUrl = null;
    if (rotateSecret) next.rotateSecret = true;
    return next;
  }

  function submit(rotateSecret = false) {
    const parsed = notificationSettingsSchema.safeParse(input(rotateSecret));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field =
        issue.path[0] === 'discordWebhookUrl' || issue.path[0] === 'endpointUrl' ? issue.path[0] : 'form';
      return setErrors({ [field]: translateSchemaProblem(issue.message) });
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: (result) => {
        setWebhook('');
        setRemoveWebhook(false);
        setSecret(result.endpointSecret ?? null);
        toast({ title: t('campaigns.notifications.saved'), variant: 'success' });
      },
      onError: (err) => {
        const message = errorMessage(err, t('campaigns.notifications.saveFailed'));
        setErrors({ [fieldOfServerError(message)]: message });
      },
    });
  }

  return {
    webhook: {
      value: webhook,
      removed: removeWebhook,
      change: (value: string) => {
        setWebhook(value);
        setRemoveWebhook(false);
        setErrors({});
      },
      remove: () => setRemoveWebhook(true),
    },
    endpoint: {
      value: endpoint,
      change: (value: string) => {
        setEndpoint(value);
        setErrors({});
      },
    },
    events,
    setEvents,
    errors,
    secret,
    saving: save.isPending,
    submit,
  };
}

/** The field a server message is about, from its words (the server names the webhook or the endpoint). */
function fieldOfServerError(message: string): FieldName {
  if (/webhook/i.test(message)) return 'discordWebhookUrl';
  if (/endpoint|address|host/i.test(message)) return 'endpointUrl';
  return 'form';
}

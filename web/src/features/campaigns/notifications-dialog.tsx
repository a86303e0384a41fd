import {
  Box,
  Button,
  Checkbox,
  Code,
  Field,
  Flex,
  Heading,
  Input,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  NOTIFICATION_EVENTS,
  SIGNATURE_HEADER,
  notificationSettingsSchema,
  type ApiNotificationSettings,
  type NotificationEvent,
  type NotificationSettingsInput,
} from '@shared/notification-schemas.ts';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { LuBell, LuCopy, LuKeyRound, LuSend } from 'react-icons/lu';
import { DialogButton, DialogShell } from '../../components/dialog-shell.tsx';
import { errorMessage } from '../../lib/api.ts';
import { toast } from '../../lib/toaster.tsx';
import { describedBy, errorId, helperId } from '../../lib/use-field-errors.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { translateSchemaProblem } from './validate.ts';
import {
  useNotificationSettings,
  useSaveNotificationSettings,
  useSendTestNotification,
} from './use-notifications.ts';

// Issue 31 item 5 (decision 052): per campaign, a Discord channel webhook and/or a signed HTTPS endpoint,
// the events to send, "Send test" and the delivery log. The server validates and decides everything.

/** What each event is called in the panel (its wire name is shown beside it). */
const EVENT_LABELS = {
  'join.verified': { labelKey: 'campaigns.notifications.events.joinVerified' },
  'join.left_early': { labelKey: 'campaigns.notifications.events.joinLeftEarly' },
  'campaign.completed': { labelKey: 'campaigns.notifications.events.campaignCompleted' },
  'campaign.paused': { labelKey: 'campaigns.notifications.events.campaignPaused' },
  'campaign.resumed': { labelKey: 'campaigns.notifications.events.campaignResumed' },
} as const satisfies Record<NotificationEvent, { labelKey: string }>;

export interface NotificationsTarget {
  id: string;
  name: string;
}

/** The card's "Notifications" button and its dialog. */
export function NotificationsButton({ campaign }: { campaign: NotificationsTarget }) {
  const { t } = useTranslation();
  return (
    <DialogButton
      buttonProps={{
        'aria-label': t('campaigns.notifications.buttonLabel', { name: campaign.name }),
        'data-notifications': '',
      }}
      dialog={(onClose) => <NotificationsDialog campaign={campaign} onClose={onClose} />}
    >
      <LuBell /> {t('campaigns.notifications.button')}
    </DialogButton>
  );
}

function NotificationsDialog({ campaign, onClose }: { campaign: NotificationsTarget; onClose: () => void }) {
  const settings = useNotificationSettings(campaign.id);
  const { t } = useTranslation();
  return (
    <DialogShell
      title={t('campaigns.notifications.title', { name: campaign.name })}
      closeLabel={t('common.close')}
      onClose={onClose}
      fullOnPhone
    >
      {settings.data ? (
        <SettingsForm campaign={campaign} saved={settings.data} />
      ) : settings.isError ? (
        <Text color="red.fg">{errorMessage(settings.error, t('campaigns.notifications.loadFailed'))}</Text>
      ) : (
        <Flex justify="center" py="8">
          <Spinner aria-label={t('campaigns.notifications.loading')} />
        </Flex>
      )}
    </DialogShell>
  );
}

type FieldName = 'discordWebhookUrl' | 'endpointUrl' | 'form';

// eslint-disable-next-line max-lines-per-function -- its texts move to t() in parallel (wave3s12-webi18n); split after that merge (notes-funcs.md)
function SettingsForm({
  campaign,
  saved,
}: {
  campaign: NotificationsTarget;
  saved: ApiNotificationSettings;
}) {
  const [webhook, setWebhook] = useState('');
  const [removeWebhook, setRemoveWebhook] = useState(false);
  const [endpoint, setEndpoint] = useState(saved.endpointUrl ?? '');
  const [events, setEvents] = useState<Set<NotificationEvent>>(new Set(saved.events));
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [secret, setSecret] = useState<string | null>(null);
  const save = useSaveNotificationSettings(campaign.id);
  const test = useSendTestNotification(campaign.id);
  const hasTarget = Boolean(saved.discordWebhook || saved.endpointUrl);
  const { t } = useTranslation();

  function input(rotateSecret = false): NotificationSettingsInput {
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
        const field: FieldName = /webhook/i.test(message)
          ? 'discordWebhookUrl'
          : /endpoint|address|host/i.test(message)
            ? 'endpointUrl'
            : 'form';
        setErrors({ [field]: message });
      },
    });
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    submit();
  }

  return (
    <Stack gap="6">
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label={t('campaigns.notifications.formLabel', { name: campaign.name })}
      >
        <Stack gap="5">
          <Text color="fg.muted" textStyle="sm">
            {t('campaigns.notifications.intro')}
          </Text>
          <Field.Root invalid={Boolean(errors.discordWebhookUrl)}>
            <Field.Label htmlFor="notify-webhook">{t('campaigns.notifications.webhook')}</Field.Label>
            {saved.discordWebhook && !removeWebhook ? (
              <Flex gap="2" align="center" wrap="wrap" w="full">
                <Code flex="1" minW="0" truncate px="2" py="1.5" bg="bg.subtle">
                  {saved.discordWebhook}
                </Code>
                <Button size="xs" variant="outline" colorPalette="red" onClick={() => setRemoveWebhook(true)}>
                  {t('campaigns.notifications.remove')}
                </Button>
              </Flex>
            ) : null}
            <Input
              id="notify-webhook"
              type="url"
              inputMode="url"
              autoComplete="off"
              bg="bg.subtle"
              value={webhook}
              onChange={(e) => {
                setWebhook(e.target.value);
                setRemoveWebhook(false);
                setErrors({});
              }}
              placeholder={
                saved.discordWebhook
                  ? t('campaigns.notifications.webhookReplace')
                  : 'https://discord.com/api/webhooks/…'
              }
              aria-describedby={describedBy('notify-webhook', {
                error: errors.discordWebhookUrl,
                helper: true,
              })}
            />
            {errors.discordWebhookUrl ? (
              <Field.ErrorText id={errorId('notify-webhook')}>{errors.discordWebhookUrl}</Field.ErrorText>
            ) : null}
            <Field.HelperText id={helperId('notify-webhook')} color="fg.subtle">
              {t('campaigns.notifications.webhookHelp')}
              {removeWebhook ? ` ${t('campaigns.notifications.webhookRemoved')}` : ''}
            </Field.HelperText>
          </Field.Root>
          <Field.Root invalid={Boolean(errors.endpointUrl)}>
            <Field.Label htmlFor="notify-endpoint">{t('campaigns.notifications.endpoint')}</Field.Label>
            <Input
              id="notify-endpoint"
              type="url"
              inputMode="url"
              autoComplete="off"
              bg="bg.subtle"
              value={endpoint}
              onChange={(e) => {
                setEndpoint(e.target.value);
                setErrors({});
              }}
              placeholder="https://example.com/coinsync-events"
              aria-describedby={describedBy('notify-endpoint', { error: errors.endpointUrl, helper: true })}
            />
            {errors.endpointUrl ? (
              <Field.ErrorText id={errorId('notify-endpoint')}>{errors.endpointUrl}</Field.ErrorText>
            ) : null}
            <Field.HelperText id={helperId('notify-endpoint')} color="fg.subtle">
              <Trans
                i18nKey="campaigns.notifications.endpointHelp"
                values={{ header: SIGNATURE_HEADER, signature: 't=…,v1=…', signed: 't.body', id: 'id' }}
                components={{ code: <Code fontSize="xs" /> }}
              />
              {saved.endpointSecretHint
                ? ` ${t('campaigns.notifications.secretHint', { hint: saved.endpointSecretHint })}`
                : ''}
            </Field.HelperText>
          </Field.Root>
          {secret ? <SecretOnce secret={secret} /> : null}
          <Box as="fieldset">
            <Text as="legend" fontWeight="medium" textStyle="sm" mb="2">
              {t('campaigns.notifications.events.title')}
            </Text>
            <Stack gap="2">
              {NOTIFICATION_EVENTS.map((event) => (
                <Checkbox.Root
                  key={event}
                  checked={events.has(event)}
                  onCheckedChange={(e) => {
                    const next = new Set(events);
                    if (e.checked === true) next.add(event);
                    else next.delete(event);
                    setEvents(next);
                  }}
                  colorPalette="brand"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontWeight="normal">
                    {t(EVENT_LABELS[event].labelKey)}{' '}
                    <Text as="span" color="fg.subtle" textStyle="xs">
                      {event}
                    </Text>
                  </Checkbox.Label>
                </Checkbox.Root>
              ))}
            </Stack>
          </Box>
          {errors.form ? (
            <Text role="alert" color="red.fg" textStyle="sm">
              {errors.form}
            </Text>
          ) : null}
          <Flex gap="2" wrap="wrap">
            <Button
              type="submit"
              colorPalette="brand"
              loading={save.isPending}
              loadingText={t('campaigns.notifications.saving')}
            >
              {t('campaigns.notifications.save')}
            </Button>
            <Button
              variant="outline"
              onClick={() => test.mutate()}
              disabled={!hasTarget}
              loading={test.isPending}
              title={hasTarget ? undefined : t('campaigns.notifications.testNeedsTarget')}
            >
              <LuSend /> {t('campaigns.notifications.sendTest')}
            </Button>
            {saved.endpointUrl ? (
              <Button
                variant="ghost"
                onClick={() => submit(true)}
                disabled={save.isPending}
                ms={{ sm: 'auto' }}
              >
                <LuKeyRound /> {t('campaigns.notifications.newSecret')}
              </Button>
            ) : null}
          </Flex>
        </Stack>
      </form>
      <Stack gap="3">
        <Heading as="h3" textStyle="md">
          {t('campaigns.notifications.log.title')}
        </Heading>
        <DeliveryLog campaignId={campaign.id} />
      </Stack>
    </Stack>
  );
}

function SecretOnce({ secret }: { secret: string }) {
  const { t } = useTranslation();
  return (
    <Box role="status" bg="brand.subtle" borderWidth="1px" borderColor="brand.muted" borderRadius="lg" p="3">
      <Text fontWeight="semibold" textStyle="sm">
        {t('campaigns.notifications.secretTitle')}
      </Text>
      <Text color="fg.muted" textStyle="xs" mb="2">
        {t('campaigns.notifications.secretText')}
      </Text>
      <Flex gap="2" align="center">
        <Code flex="1" minW="0" wordBreak="break-all" px="2" py="1.5" data-testid="signing-secret">
          {secret}
        </Code>
        <Button
          size="xs"
          variant="subtle"
          onClick={() =>
            void navigator.clipboard.writeText(secret).then(
              () => toast({ title: t('campaigns.notifications.secretCopied'), variant: 'success' }),
              () => toast({ title: t('campaigns.card.copyFailed'), variant: 'destructive' }),
            )
          }
        >
          <LuCopy /> {t('campaigns.notifications.copy')}
        </Button>
      </Flex>
    </Box>
  );
}

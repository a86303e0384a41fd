import { Box, Button, Checkbox, Code, Field, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import {
  NOTIFICATION_EVENTS,
  SIGNATURE_HEADER,
  type ApiNotificationSettings,
  type NotificationEvent,
} from '@shared/notification-schemas.ts';
import type { FormEvent, ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { LuCopy, LuKeyRound, LuSend } from 'react-icons/lu';
import { toast } from '../../lib/toaster.tsx';
import { describedBy, errorId, helperId } from '../../lib/use-field-errors.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { useSendTestNotification } from './use-notifications.ts';
import { useNotificationSettingsForm } from './use-notification-settings-form.ts';

// The notifications dialog's form (notifications-dialog.tsx): the Discord webhook, the signed endpoint,
// the events, Save / Send test / new secret, and the delivery log under it.

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

/** The settings form and the delivery log; the server validates and decides everything. */
export function NotificationSettingsForm({
  campaign,
  saved,
}: {
  campaign: NotificationsTarget;
  saved: ApiNotificationSettings;
}) {
  const form = useNotificationSettingsForm(campaign.id, saved);
  const { t } = useTranslation();

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    form.submit();
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
          <WebhookField saved={saved} form={form} />
          <EndpointField saved={saved} form={form} />
          {form.secret ? <SecretOnce secret={form.secret} /> : null}
          <EventChoices events={form.events} onChange={form.setEvents} />
          {form.errors.form ? (
            <Text role="alert" color="red.fg" textStyle="sm">
              {form.errors.form}
            </Text>
          ) : null}
          <SettingsActions campaignId={campaign.id} saved={saved} saving={form.saving} submit={form.submit} />
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

type SettingsFormState = ReturnType<typeof useNotificationSettingsForm>;

/** A URL field: its label, input, error (linked for screen readers) and helper text. */
function UrlField({
  id,
  label,
  value,
  onChange,
  placeholder,
  error,
  helper,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  error: string | undefined;
  helper: ReactNode;
  /** Shown between the label and the input (the saved webhook). */
  children?: ReactNode;
}) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>{label}</Field.Label>
      {children}
      <Input
        id={id}
        type="url"
        inputMode="url"
        autoComplete="off"
        bg="bg.subtle"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        aria-describedby={describedBy(id, { error, helper: true })}
      />
      {error ? <Field.ErrorText id={errorId(id)}>{error}</Field.ErrorText> : null}
      <Field.HelperText id={helperId(id)} color="fg.subtle">
        {helper}
      </Field.HelperText>
    </Field.Root>
  );
}

/** The Discord webhook: the saved one (masked by the server) with "Remove", and a field to set a new one. */
function WebhookField({ saved, form }: { saved: ApiNotificationSettings; form: SettingsFormState }) {
  const { webhook } = form;
  const { t } = useTranslation();
  return (
    <UrlField
      id="notify-webhook"
      label={t('campaigns.notifications.webhook')}
      value={webhook.value}
      onChange={webhook.change}
      placeholder={
        saved.discordWebhook
          ? t('campaigns.notifications.webhookReplace')
          : 'https://discord.com/api/webhooks/…'
      }
      error={form.errors.discordWebhookUrl}
      helper={
        <>
          {t('campaigns.notifications.webhookHelp')}
          {webhook.removed ? ` ${t('campaigns.notifications.webhookRemoved')}` : ''}
        </>
      }
    >
      {saved.discordWebhook && !webhook.removed ? (
        <Flex gap="2" align="center" wrap="wrap" w="full">
          <Code flex="1" minW="0" truncate px="2" py="1.5" bg="bg.subtle">
            {saved.discordWebhook}
          </Code>
          <Button size="xs" variant="outline" colorPalette="red" onClick={webhook.remove}>
            {t('campaigns.notifications.remove')}
          </Button>
        </Flex>
      ) : null}
    </UrlField>
  );
}

/** The signed HTTPS endpoint, with how to check its signature and the hint of the saved secret. */
function EndpointField({ saved, form }: { saved: ApiNotificationSettings; form: SettingsFormState }) {
  const { endpoint } = form;
  const { t } = useTranslation();
  return (
    <UrlField
      id="notify-endpoint"
      label={t('campaigns.notifications.endpoint')}
      value={endpoint.value}
      onChange={endpoint.change}
      placeholder="https://example.com/coinsync-events"
      error={form.errors.endpointUrl}
      helper={
        <>
          <Trans
            i18nKey="campaigns.notifications.endpointHelp"
            values={{ header: SIGNATURE_HEADER, signature: 't=…,v1=…', signed: 't.body', id: 'id' }}
            components={{ code: <Code fontSize="xs" /> }}
          />
          {saved.endpointSecretHint
            ? ` ${t('campaigns.notifications.secretHint', { hint: saved.endpointSecretHint })}`
            : ''}
        </>
      }
    />
  );
}

/** One checkbox an event, its label beside its wire name. */
function EventChoices({
  events,
  onChange,
}: {
  events: Set<NotificationEvent>;
  onChange: (events: Set<NotificationEvent>) => void;
}) {
  const { t } = useTranslation();
  return (
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
              onChange(next);
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
  );
}

/** Save, Send test (once a target is saved) and, with an endpoint, Save with a new signing secret. */
function SettingsActions({
  campaignId,
  saved,
  saving,
  submit,
}: {
  campaignId: string;
  saved: ApiNotificationSettings;
  saving: boolean;
  submit: (rotateSecret?: boolean) => void;
}) {
  const test = useSendTestNotification(campaignId);
  const hasTarget = Boolean(saved.discordWebhook || saved.endpointUrl);
  const { t } = useTranslation();
  return (
    <Flex gap="2" wrap="wrap">
      <Button
        type="submit"
        colorPalette="brand"
        loading={saving}
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
        <Button variant="ghost" onClick={() => submit(true)} disabled={saving} ms={{ sm: 'auto' }}>
          <LuKeyRound /> {t('campaigns.notifications.newSecret')}
        </Button>
      ) : null}
    </Flex>
  );
}

/** The new signing secret, shown once after a save that made it, with a copy button. */
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

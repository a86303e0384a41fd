import {
  Alert,
  Button,
  Card,
  Field,
  Heading,
  HStack,
  Input,
  NativeSelect,
  Skeleton,
  Stack,
  Switch,
  Text,
} from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { LuBellRing, LuMoon } from 'react-icons/lu';
import {
  DEFAULT_QUIET_HOURS,
  REMINDER_KINDS,
  REMINDER_MEMBER_PACE_MS,
  type ReminderKind,
} from '@shared/reminder-constants.ts';
import type { ReminderSettingsResponse, UpdateRemindersInput } from '@shared/reminder-schemas.ts';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { reminderKeys } from '../../lib/query-keys.ts';
import { toast } from '../../lib/toaster.tsx';
import { i18n } from '../../lib/i18n.ts';
import { useTranslation } from 'react-i18next';

// Opt-in reminders on the Account page (issue 32 item 2, decision 055): a switch per kind, quiet hours
// and the time zone they are in. Every kind is off until switched on; the first switch-on sends the
// browser's time zone. Discord's refusal (50007) shows here, since it switched everything off.

const KIND_TEXT = {
  hourly: { labelKey: 'reminders.hourly', helpKey: 'reminders.hourlyHelp' },
  bonus: { labelKey: 'reminders.bonus', helpKey: 'reminders.bonusHelp' },
  daily: { labelKey: 'reminders.daily', helpKey: 'reminders.dailyHelp' },
  stay: { labelKey: 'reminders.stay', helpKey: 'reminders.stayHelp' },
  campaign: { labelKey: 'reminders.campaign', helpKey: 'reminders.campaignHelp' },
} as const satisfies Record<ReminderKind, { labelKey: string; helpKey: string }>;

const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const zones = (current: string): string[] => {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes(current) ? all : [current, ...all];
};

function useUpdateReminders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateRemindersInput) =>
      apiJson<ReminderSettingsResponse>('PUT', '/api/account/reminders', input),
    onSuccess: (settings) => queryClient.setQueryData(reminderKeys.settings(), settings),
    onError: (err) =>
      toast({
        title: i18n.t('common.error'),
        description: errorMessage(err, i18n.t('reminders.failed')),
        variant: 'destructive',
      }),
  });
}

export function ReminderSettings() {
  const { data, isPending } = useQuery<ReminderSettingsResponse>({ queryKey: reminderKeys.settings() });
  const update = useUpdateReminders();
  const { t } = useTranslation();
  return (
    <Card.Root as="section" variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body p="card" gap="4">
        <Heading as="h2" textStyle="sectionTitle">
          {t('reminders.title')}
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          {t('reminders.intro', { minutes: REMINDER_MEMBER_PACE_MS / 60_000 })}
        </Text>
        {data?.dmBlockedAt && (
          <Alert.Root status="warning" variant="surface" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('reminders.blockedTitle')}</Alert.Title>
              <Alert.Description>{t('reminders.blockedText')}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        )}
        {isPending || !data ? (
          <Skeleton height="40" borderRadius="lg" />
        ) : (
          <>
            <Stack gap="3">
              {REMINDER_KINDS.map((kind) => (
                <KindSwitch
                  key={kind}
                  kind={kind}
                  checked={data.kinds[kind]}
                  disabled={update.isPending}
                  onChange={(on) => {
                    const first = on && !Object.values(data.kinds).some(Boolean) && data.timeZone === 'UTC';
                    update.mutate({ kinds: { [kind]: on }, ...(first ? { timeZone: browserZone() } : {}) });
                  }}
                />
              ))}
            </Stack>
            <QuietHours
              key={`${data.timeZone}-${data.quietHours?.start}-${data.quietHours?.end}`}
              settings={data}
            />
          </>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function KindSwitch(props: {
  kind: ReminderKind;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  const text = KIND_TEXT[props.kind];
  const { t } = useTranslation();
  return (
    <Switch.Root
      checked={props.checked}
      disabled={props.disabled}
      onCheckedChange={(e) => props.onChange(e.checked)}
      colorPalette="brand"
      justifyContent="space-between"
      width="full"
      gap="4"
    >
      <Stack gap="0" flex="1">
        <Switch.Label fontWeight="medium">{t(text.labelKey)}</Switch.Label>
        <Text textStyle="xs" color="fg.muted">
          {t(text.helpKey)}
        </Text>
      </Stack>
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
    </Switch.Root>
  );
}

function QuietHours({ settings }: { settings: ReminderSettingsResponse }) {
  const update = useUpdateReminders();
  const { t } = useTranslation();
  const [enabled, setEnabled] = useState(settings.quietHours !== null);
  const [start, setStart] = useState(settings.quietHours?.start ?? DEFAULT_QUIET_HOURS.start);
  const [end, setEnd] = useState(settings.quietHours?.end ?? DEFAULT_QUIET_HOURS.end);
  const [zone, setZone] = useState(settings.timeZone);
  const save = () =>
    update.mutate(
      { timeZone: zone, quietHours: enabled ? { start, end } : null },
      { onSuccess: () => toast({ title: t('reminders.saved'), description: t('reminders.savedText') }) },
    );
  return (
    <Stack gap="3" borderTopWidth="1px" borderColor="border" pt="4">
      <Switch.Root
        checked={enabled}
        onCheckedChange={(e) => setEnabled(e.checked)}
        colorPalette="brand"
        justifyContent="space-between"
        width="full"
      >
        <HStack gap="2">
          <LuMoon aria-hidden />
          <Switch.Label fontWeight="medium">{t('reminders.quiet')}</Switch.Label>
        </HStack>
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
      </Switch.Root>
      <Text textStyle="xs" color="fg.muted">
        {t('reminders.quietHelp')}
      </Text>
      <HStack gap="3" wrap="wrap" align="flex-end">
        <TimeField
          id="quiet-start"
          label={t('reminders.from')}
          value={start}
          onChange={setStart}
          disabled={!enabled}
        />
        <TimeField
          id="quiet-end"
          label={t('reminders.until')}
          value={end}
          onChange={setEnd}
          disabled={!enabled}
        />
        <Field.Root flex="1" minW="48">
          <Field.Label htmlFor="quiet-zone">{t('reminders.zone')}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              id="quiet-zone"
              bg="bg.subtle"
              value={zone}
              onChange={(e) => setZone(e.target.value)}
            >
              {zones(zone).map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </HStack>
      <Button
        alignSelf="flex-start"
        variant="outline"
        colorPalette="gray"
        onClick={save}
        loading={update.isPending}
      >
        <LuBellRing /> {t('reminders.save')}
      </Button>
    </Stack>
  );
}

function TimeField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  return (
    <Field.Root width="auto" disabled={props.disabled}>
      <Field.Label htmlFor={props.id}>{props.label}</Field.Label>
      <Input
        id={props.id}
        type="time"
        bg="bg.subtle"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </Field.Root>
  );
}

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

// Opt-in reminders on the Account page (issue 32 item 2, decision 055): a switch per kind, quiet hours
// and the time zone they are in. Every kind is off until switched on; the first switch-on sends the
// browser's time zone. Discord's refusal (50007) shows here, since it switched everything off.

const KIND_TEXT: Record<ReminderKind, { label: string; help: string }> = {
  hourly: { label: 'Hourly reward ready', help: 'When you can claim your hourly reward again.' },
  bonus: { label: 'Bonus reward ready', help: 'When your bonus reward can be claimed again.' },
  daily: { label: 'Daily reward ready', help: 'When your daily reward can be claimed again.' },
  stay: {
    label: 'Free to leave a server',
    help: 'When you may leave a server you joined for coins without a penalty.',
  },
  campaign: { label: 'Campaign 80 % full', help: 'When one of your campaigns has 80 % of its members.' },
};

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
        title: 'Error',
        description: errorMessage(err, 'Failed to save your reminders'),
        variant: 'destructive',
      }),
  });
}

export function ReminderSettings() {
  const { data, isPending } = useQuery<ReminderSettingsResponse>({ queryKey: reminderKeys.settings() });
  const update = useUpdateReminders();
  return (
    <Card.Root as="section" variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body p="card" gap="4">
        <Heading as="h2" textStyle="sectionTitle">
          Reminders
        </Heading>
        <Text textStyle="sm" color="fg.muted">
          Off until you switch them on. Our bot sends them as Discord DMs — at most one every{' '}
          {REMINDER_MEMBER_PACE_MS / 60_000} minutes, several together — and you can stop them here or with
          /remind.
        </Text>
        {data?.dmBlockedAt && (
          <Alert.Root status="warning" variant="surface" borderRadius="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Discord did not deliver our last reminder</Alert.Title>
              <Alert.Description>
                Your DMs from servers you share with our bot are closed, so every reminder was switched off.
                Allow direct messages in Discord’s privacy settings, then switch them on again.
              </Alert.Description>
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
        <Switch.Label fontWeight="medium">{text.label}</Switch.Label>
        <Text textStyle="xs" color="fg.muted">
          {text.help}
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
  const [enabled, setEnabled] = useState(settings.quietHours !== null);
  const [start, setStart] = useState(settings.quietHours?.start ?? DEFAULT_QUIET_HOURS.start);
  const [end, setEnd] = useState(settings.quietHours?.end ?? DEFAULT_QUIET_HOURS.end);
  const [zone, setZone] = useState(settings.timeZone);
  const save = () =>
    update.mutate(
      { timeZone: zone, quietHours: enabled ? { start, end } : null },
      { onSuccess: () => toast({ title: 'Reminders saved', description: 'Your quiet hours are set.' }) },
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
          <Switch.Label fontWeight="medium">Quiet hours</Switch.Label>
        </HStack>
        <Switch.HiddenInput />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
      </Switch.Root>
      <Text textStyle="xs" color="fg.muted">
        Reminders due during quiet hours wait until they end, in your time zone.
      </Text>
      <HStack gap="3" wrap="wrap" align="flex-end">
        <Field.Root width="auto" disabled={!enabled}>
          <Field.Label htmlFor="quiet-start">From</Field.Label>
          <Input
            id="quiet-start"
            type="time"
            bg="bg.subtle"
            value={start}
            onChange={(e) => setStart(e.target.value)}
          />
        </Field.Root>
        <Field.Root width="auto" disabled={!enabled}>
          <Field.Label htmlFor="quiet-end">Until</Field.Label>
          <Input
            id="quiet-end"
            type="time"
            bg="bg.subtle"
            value={end}
            onChange={(e) => setEnd(e.target.value)}
          />
        </Field.Root>
        <Field.Root flex="1" minW="48">
          <Field.Label htmlFor="quiet-zone">Time zone</Field.Label>
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
        <LuBellRing /> Save quiet hours
      </Button>
    </Stack>
  );
}

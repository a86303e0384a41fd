import { Badge, Box, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import type { Locale } from '@shared/i18n/index.ts';
import {
  parseDeliveryError,
  type DeliveryErrorKind,
  type DeliveryErrorParams,
} from '@shared/delivery-errors.ts';
import type { ApiNotificationDelivery, DeliveryStatus } from '@shared/notification-schemas.ts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LuGlobe, LuMessageSquare } from 'react-icons/lu';
import { errorMessage } from '../../lib/api.ts';
import { formatWhole } from '../../lib/format.ts';
import { useLocale } from '../../lib/i18n.ts';
import { useNotificationDeliveries } from './use-notifications.ts';

// The latest deliveries of a campaign's notifications, with their last attempt (decision 052): status,
// HTTP status and time taken, or why it failed. Asked again every few seconds while one is pending.

const STATUS = {
  delivered: { labelKey: 'campaigns.notifications.log.delivered', palette: 'green' },
  pending: { labelKey: 'campaigns.notifications.log.pending', palette: 'yellow' },
  failed: { labelKey: 'campaigns.notifications.log.failed', palette: 'red' },
  dropped: { labelKey: 'campaigns.notifications.log.dropped', palette: 'gray' },
} as const satisfies Record<DeliveryStatus, { labelKey: string; palette: string }>;

const time = (iso: string, locale: Locale) =>
  new Date(iso).toLocaleString(locale, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

/** Each recorded failure (src/shared/delivery-errors.ts) in the member's language. */
const ERROR_TEXTS: Record<DeliveryErrorKind, (t: TFunction, params: DeliveryErrorParams) => string> = {
  httpsOnly: (t) => t('campaigns.notifications.log.errors.httpsOnly'),
  privateAddress: (t) => t('campaigns.notifications.log.errors.privateAddress'),
  unresolvable: (t) => t('campaigns.notifications.log.errors.unresolvable'),
  redirect: (t) => t('campaigns.notifications.log.errors.redirect'),
  endpointStatus: (t, p) => t('campaigns.notifications.log.errors.endpointStatus', p),
  timeout: (t, p) => t('campaigns.notifications.log.errors.timeout', p),
  connectionRefused: (t) => t('campaigns.notifications.log.errors.connectionRefused'),
  connectionReset: (t) => t('campaigns.notifications.log.errors.connectionReset'),
  tlsRejected: (t) => t('campaigns.notifications.log.errors.tlsRejected'),
  tlsExpired: (t) => t('campaigns.notifications.log.errors.tlsExpired'),
  networkCode: (t, p) => t('campaigns.notifications.log.errors.networkCode', p),
  network: (t) => t('campaigns.notifications.log.errors.network'),
  discordUnknownWebhook: (t) => t('campaigns.notifications.log.errors.discordUnknownWebhook'),
  discordRateLimit: (t) => t('campaigns.notifications.log.errors.discordRateLimit'),
  discordStatus: (t, p) => t('campaigns.notifications.log.errors.discordStatus', p),
  discordUnreachable: (t) => t('campaigns.notifications.log.errors.discordUnreachable'),
};

/** The server's recorded failure (English on the wire) in the member's language; one it did not write as it is. */
export function deliveryErrorText(recorded: string, t: TFunction): string {
  const known = parseDeliveryError(recorded);
  return known ? ERROR_TEXTS[known.kind](t, known.params) : recorded;
}

function detail(d: ApiNotificationDelivery, t: TFunction, locale: Locale): string {
  const parts: string[] = [];
  if (d.lastStatusCode !== null) parts.push(`HTTP ${d.lastStatusCode}`);
  if (d.lastLatencyMs !== null)
    parts.push(t('campaigns.notifications.log.latency', { ms: formatWhole(d.lastLatencyMs, locale) }));
  if (d.lastError) parts.push(deliveryErrorText(d.lastError, t));
  if (d.attempts > 1) parts.push(t('campaigns.notifications.log.attempts', { count: d.attempts }));
  if (d.status === 'pending')
    parts.push(
      d.attempts === 0
        ? t('campaigns.notifications.log.sendingSoon')
        : t('campaigns.notifications.log.nextTry', { time: time(d.nextAttemptAt!, locale) }),
    );
  if (d.status === 'dropped') parts.push(t('campaigns.notifications.log.targetRemoved'));
  return parts.join(' · ');
}

export function DeliveryLog({ campaignId }: { campaignId: string }) {
  const deliveries = useNotificationDeliveries(campaignId);
  const { t } = useTranslation();
  const locale = useLocale();
  if (deliveries.isPending)
    return <Spinner size="sm" aria-label={t('campaigns.notifications.log.loading')} />;
  if (deliveries.isError)
    return (
      <Text color="red.fg">
        {errorMessage(deliveries.error, t('campaigns.notifications.log.loadFailed'))}
      </Text>
    );
  if (deliveries.data.length === 0)
    return (
      <Text color="fg.muted" textStyle="sm">
        {t('campaigns.notifications.log.empty')}
      </Text>
    );
  return (
    <Stack as="ul" gap="2" listStyleType="none" aria-label={t('campaigns.notifications.log.title')}>
      {deliveries.data.map((d) => {
        const status = STATUS[d.status];
        return (
          <Box
            as="li"
            key={d.id}
            bg="bg.subtle"
            borderWidth="1px"
            borderColor="border.muted"
            borderRadius="lg"
            px="3"
            py="2"
          >
            <Flex gap="2" align="center" wrap="wrap">
              <Box color="fg.subtle" aria-hidden>
                {d.target === 'discord' ? <LuMessageSquare /> : <LuGlobe />}
              </Box>
              <Text fontWeight="medium" textStyle="sm">
                {d.eventType}
              </Text>
              <Text color="fg.subtle" textStyle="xs">
                {d.target === 'discord' ? 'Discord' : t('campaigns.notifications.log.endpoint')} ·{' '}
                {time(d.createdAt, locale)}
              </Text>
              <Badge colorPalette={status.palette} ms="auto">
                {t(status.labelKey)}
              </Badge>
            </Flex>
            <Text color="fg.muted" textStyle="xs" mt="1" wordBreak="break-word">
              {detail(d, t, locale)}
            </Text>
          </Box>
        );
      })}
    </Stack>
  );
}

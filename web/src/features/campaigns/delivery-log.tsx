import { Badge, Box, Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ApiNotificationDelivery, DeliveryStatus } from '@shared/notification-schemas.ts';
import { LuGlobe, LuMessageSquare } from 'react-icons/lu';
import { errorMessage } from '../../lib/api.ts';
import { useNotificationDeliveries } from './use-notifications.ts';

// The latest deliveries of a campaign's notifications, with their last attempt (decision 052): status,
// HTTP status and time taken, or why it failed. Asked again every few seconds while one is pending.

const STATUS: Record<DeliveryStatus, { label: string; palette: string }> = {
  delivered: { label: 'Delivered', palette: 'green' },
  pending: { label: 'Pending', palette: 'yellow' },
  failed: { label: 'Failed', palette: 'red' },
  dropped: { label: 'Not sent', palette: 'gray' },
};

const time = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });

function detail(d: ApiNotificationDelivery): string {
  const parts: string[] = [];
  if (d.lastStatusCode !== null) parts.push(`HTTP ${d.lastStatusCode}`);
  if (d.lastLatencyMs !== null) parts.push(`${d.lastLatencyMs} ms`);
  if (d.lastError) parts.push(d.lastError);
  if (d.attempts > 1) parts.push(`${d.attempts} attempts`);
  if (d.status === 'pending')
    parts.push(d.attempts === 0 ? 'sending within seconds' : `next try ${time(d.nextAttemptAt!)}`);
  if (d.status === 'dropped') parts.push('its destination was removed');
  return parts.join(' · ');
}

export function DeliveryLog({ campaignId }: { campaignId: string }) {
  const deliveries = useNotificationDeliveries(campaignId);
  if (deliveries.isPending) return <Spinner size="sm" aria-label="Loading the delivery log" />;
  if (deliveries.isError)
    return <Text color="red.fg">{errorMessage(deliveries.error, 'Could not load the delivery log.')}</Text>;
  if (deliveries.data.length === 0)
    return (
      <Text color="fg.muted" textStyle="sm">
        No deliveries yet. Save a destination and press Send test.
      </Text>
    );
  return (
    <Stack as="ul" gap="2" listStyleType="none" aria-label="Delivery log">
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
                {d.target === 'discord' ? 'Discord' : 'Endpoint'} · {time(d.createdAt)}
              </Text>
              <Badge colorPalette={status.palette} ms="auto">
                {status.label}
              </Badge>
            </Flex>
            <Text color="fg.muted" textStyle="xs" mt="1" wordBreak="break-word">
              {detail(d)}
            </Text>
          </Box>
        );
      })}
    </Stack>
  );
}

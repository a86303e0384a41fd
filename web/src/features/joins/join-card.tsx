import { Badge, Button, Card, Flex, HStack, Stack, Text } from '@chakra-ui/react';
import type { ApiJoin } from '@shared/api-types.ts';
import { LuRefreshCw } from 'react-icons/lu';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { formatDateTime, joinStatus } from './join-status.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';

interface JoinCardProps {
  join: ApiJoin;
  onRetry: (join: ApiJoin) => void;
  onClaim: (join: ApiJoin) => void;
  busy: boolean;
}

/** One row of My Joins: the server, the state in words, the safe-to-leave date and what can be done. */
export function JoinCard({ join, onRetry, onClaim, busy }: JoinCardProps) {
  // Server-rendered (decision 031): dates in UTC until hydrated, then in the browser's time zone.
  const timeZone = useHydrated() ? undefined : 'UTC';
  const { t } = useTranslation();
  const locale = useLocale();
  const status = joinStatus(join, t, locale, timeZone);
  return (
    <Card.Root as="article" variant="outline" bg="bg.panel" borderRadius="xl" aria-label={join.serverName}>
      <Card.Body p={{ base: '4', md: '5' }}>
        <Flex gap="3" align={{ base: 'start', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
          <HStack gap="3" flex="1" minW="0" align="center">
            <ServerAvatar name={join.serverName} iconUrl={join.iconUrl} size="md" />
            <Stack gap="1" minW="0">
              <HStack gap="2" minW="0">
                <Text as="h2" fontWeight="semibold" truncate>
                  {join.serverName}
                </Text>
                {join.noBot ? <Badge colorPalette="gray">{t('servers.noBot')}</Badge> : null}
              </HStack>
              <Badge colorPalette={status.palette} alignSelf="start" whiteSpace="normal" textAlign="start">
                {status.label}
              </Badge>
              <Text textStyle="xs" color="fg.muted">
                {/* The join's own date and time; the stay's end is in the badge above, not repeated here. */}
                {t('joins.joined')}{' '}
                <time dateTime={join.joinedAt}>{formatDateTime(join.joinedAt, timeZone, locale)}</time>
              </Text>
            </Stack>
          </HStack>
          <HStack gap="2" flexShrink={0}>
            {join.canClaim ? (
              <Button size="sm" colorPalette="brand" loading={busy} onClick={() => onClaim(join)}>
                {t('joins.claim')}
              </Button>
            ) : null}
            {join.canRetry ? (
              <Button
                size="sm"
                variant="outline"
                loading={busy}
                onClick={() => onRetry(join)}
                aria-label={t('joins.retryNamed', { name: join.serverName })}
              >
                <LuRefreshCw /> {t('joins.retry')}
              </Button>
            ) : null}
          </HStack>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

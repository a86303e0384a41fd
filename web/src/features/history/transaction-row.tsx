import { Box, Flex, Text } from '@chakra-ui/react';
import type { ApiTransaction } from '@shared/api-types.ts';
import { LuArrowDownLeft, LuArrowUpRight } from 'react-icons/lu';
import { formatDateTime, formatSignedCoins, isNonNegative } from '../../lib/format.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

/** One ledger entry: direction icon, description (or type), date, signed amount in green or red. */
export function TransactionRow({ transaction: t }: { transaction: ApiTransaction }) {
  const positive = isNonNegative(t.amount);
  // A server-rendered row shows the UTC date until hydrated (the server cannot know the time zone).
  const hydrated = useHydrated();
  return (
    <Flex
      as="li"
      align="center"
      gap="3"
      py="3"
      borderBottomWidth="1px"
      borderColor="border.muted"
      _last={{ borderBottomWidth: 0 }}
      data-testid="transaction"
    >
      <Box
        colorPalette={positive ? 'green' : 'red'}
        bg="colorPalette.subtle"
        color="colorPalette.fg"
        borderRadius="full"
        p="2"
        flexShrink={0}
        aria-hidden
      >
        {positive ? <LuArrowDownLeft /> : <LuArrowUpRight />}
      </Box>
      <Box flex="1" minW="0">
        <Text textStyle="sm" fontWeight="medium" lineClamp={2} wordBreak="break-word">
          {t.description ?? t.type}
        </Text>
        <Text textStyle="xs" color="fg.subtle">
          <time dateTime={t.createdAt}>{formatDateTime(t.createdAt, hydrated ? undefined : 'UTC')}</time>
        </Text>
      </Box>
      <Text
        fontWeight="semibold"
        fontVariantNumeric="tabular-nums"
        color={positive ? 'green.fg' : 'red.fg'}
        flexShrink={0}
      >
        {formatSignedCoins(t.amount)}
      </Text>
    </Flex>
  );
}

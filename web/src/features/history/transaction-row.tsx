import { Box, Flex, Text } from '@chakra-ui/react';
import type { ApiTransaction } from '@shared/api-types.ts';
import { LuArrowDownLeft, LuArrowUpRight } from 'react-icons/lu';
import { formatDateTime, formatSignedCoins, isNonNegative } from '../../lib/format.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useLocale } from '../../lib/i18n.ts';

/** One ledger entry: direction icon, description (or type), date, signed amount in green or red. */
export function TransactionRow({ transaction: row }: { transaction: ApiTransaction }) {
  const locale = useLocale();
  const positive = isNonNegative(row.amount);
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
          {row.description ?? row.type}
        </Text>
        <Text textStyle="xs" color="fg.subtle">
          <time dateTime={row.createdAt}>
            {formatDateTime(row.createdAt, hydrated ? undefined : 'UTC', locale)}
          </time>
        </Text>
      </Box>
      <Text
        fontWeight="semibold"
        fontVariantNumeric="tabular-nums"
        color={positive ? 'green.fg' : 'red.fg'}
        flexShrink={0}
      >
        {formatSignedCoins(row.amount, locale)}
      </Text>
    </Flex>
  );
}

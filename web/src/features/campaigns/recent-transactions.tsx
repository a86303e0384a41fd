import { Box, Card, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuArrowDownLeft, LuArrowUpRight } from 'react-icons/lu';
import { EmptyState } from '../../components/empty-state.tsx';
import { formatDate, formatSignedCoins, isNonNegative } from '../../lib/format.ts';
import { useTransactions } from './use-transactions.ts';

/** The Dashboard shows the latest 10 (spec §9). */
export const RECENT_TRANSACTIONS = 10;

/** Dashboard "Recent Transactions": description or type, date, signed amount (green / red). */
export function RecentTransactions() {
  const { data, isLoading, isError } = useTransactions();
  const rows = (data ?? []).slice(0, RECENT_TRANSACTIONS);
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Header pb="0">
        <Heading as="h2" textStyle="lg" fontWeight="semibold">
          Recent Transactions
        </Heading>
      </Card.Header>
      <Card.Body pt="2">
        {isLoading ? (
          <Stack gap="3" py="2">
            <Skeleton h="10" />
            <Skeleton h="10" />
            <Skeleton h="10" />
          </Stack>
        ) : isError ? (
          <Text color="red.fg" textStyle="sm" py="4">
            Could not load your transactions.
          </Text>
        ) : rows.length === 0 ? (
          <EmptyState
            title="No transactions yet"
            description="Earn or spend coins and they will show up here."
          />
        ) : (
          <Box as="ul" listStyleType="none">
            {rows.map((t) => {
              const positive = isNonNegative(t.amount);
              return (
                <Flex
                  as="li"
                  key={t.id}
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
                      {formatDate(t.createdAt)}
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
            })}
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

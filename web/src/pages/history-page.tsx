import { Box, Button, Card, Flex, HStack, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { TRANSACTION_FILTERS, type TransactionFilter } from '@shared/history-schemas.ts';
import { useState } from 'react';
import { LuChevronLeft, LuChevronRight, LuHistory } from 'react-icons/lu';
import { EmptyState } from '../components/empty-state.tsx';
import { ErrorState } from '../components/error-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { EarningsChart } from '../features/history/earnings-chart.tsx';
import { TransactionRow } from '../features/history/transaction-row.tsx';
import { useEarnings } from '../features/history/use-earnings.ts';
import { useTransactionHistory } from '../features/history/use-transaction-history.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

type Filter = TransactionFilter | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...(Object.entries(TRANSACTION_FILTERS) as [TransactionFilter, { label: string }][])
    .filter(([value]) => value !== 'account')
    .map(([value, { label }]) => ({ value, label })),
];

function EarningsCard() {
  const { data, isLoading, isError, refetch } = useEarnings();
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body p="card">
        <Heading as="h2" textStyle="sectionTitle" mb="3">
          Earnings
        </Heading>
        {isLoading ? (
          <Skeleton h="32" borderRadius="lg" />
        ) : isError || !data ? (
          <ErrorState size="sm" title="Could not load your earnings" onRetry={() => void refetch()} />
        ) : (
          <EarningsChart days={data} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

export default function HistoryPage() {
  useDocumentTitle(
    'Transaction history',
    'Every coin you earned and spent, with your earnings of the last 30 days.',
  );
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const history = useTransactionHistory(filter, page);
  const data = history.data;

  return (
    <Stack gap="6">
      <PageHeader title="Transaction history" subtitle="Every coin you earned and spent." />
      <EarningsCard />
      <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
        <Card.Body p="card" gap="4">
          <Flex
            justify="space-between"
            align={{ base: 'stretch', md: 'center' }}
            direction={{ base: 'column', md: 'row' }}
            gap="3"
          >
            <Heading as="h2" textStyle="sectionTitle">
              Transactions
            </Heading>
            <HStack role="group" aria-label="Filter by type" gap="2" flexWrap="wrap">
              {FILTERS.map((f) => (
                <Button
                  key={f.value}
                  size="xs"
                  borderRadius="full"
                  variant={filter === f.value ? 'solid' : 'outline'}
                  colorPalette={filter === f.value ? 'brand' : 'gray'}
                  aria-pressed={filter === f.value}
                  onClick={() => {
                    setFilter(f.value);
                    setPage(1);
                  }}
                >
                  {f.label}
                </Button>
              ))}
            </HStack>
          </Flex>
          {history.isLoading ? (
            <Stack gap="3">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} h="12" />
              ))}
            </Stack>
          ) : history.isError || !data ? (
            <ErrorState title="Could not load your transactions" onRetry={() => void history.refetch()} />
          ) : data.items.length === 0 ? (
            <EmptyState
              icon={<LuHistory />}
              title={filter === 'all' ? 'No transactions yet' : 'Nothing of this type yet'}
              description="Earn or spend coins and they will show up here."
            />
          ) : (
            <Box
              as="ul"
              listStyleType="none"
              aria-busy={history.isFetching}
              opacity={history.isPlaceholderData ? 0.6 : 1}
            >
              {data.items.map((t) => (
                <TransactionRow key={t.id} transaction={t} />
              ))}
            </Box>
          )}
          {data && data.pageCount > 1 ? (
            <Flex as="nav" aria-label="Pages" justify="space-between" align="center" gap="3" pt="2">
              <Button
                size="sm"
                variant="outline"
                colorPalette="gray"
                disabled={page <= 1}
                onClick={() => setPage((p) => p - 1)}
              >
                <LuChevronLeft /> Previous
              </Button>
              <Text textStyle="sm" color="fg.muted" aria-live="polite">
                Page {page} of {data.pageCount}
              </Text>
              <Button
                size="sm"
                variant="outline"
                colorPalette="gray"
                disabled={page >= data.pageCount}
                onClick={() => setPage((p) => p + 1)}
              >
                Next <LuChevronRight />
              </Button>
            </Flex>
          ) : null}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

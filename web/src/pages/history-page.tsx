import { Box, Button, Card, Flex, HStack, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { EARNINGS_DAYS, type TransactionFilter } from '@shared/history-schemas.ts';
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
import { useTranslation } from 'react-i18next';

type Filter = TransactionFilter | 'all';
// The filter buttons (TRANSACTION_FILTERS' groups but the account's), each named in the catalogue.
const FILTERS = [
  { value: 'all', labelKey: 'history.filters.all' },
  { value: 'rewards', labelKey: 'history.filters.rewards' },
  { value: 'joins', labelKey: 'history.filters.joins' },
  { value: 'social', labelKey: 'history.filters.social' },
  { value: 'campaigns', labelKey: 'history.filters.campaigns' },
  { value: 'purchases', labelKey: 'history.filters.purchases' },
] as const satisfies readonly { value: Filter; labelKey: string }[];

function EarningsCard() {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useEarnings();
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body p="card">
        <Heading as="h2" textStyle="sectionTitle" mb="3">
          {t('history.earnings')}
        </Heading>
        {isLoading ? (
          <Skeleton h="32" borderRadius="lg" />
        ) : isError || !data ? (
          <ErrorState size="sm" title={t('history.earningsFailed')} onRetry={() => void refetch()} />
        ) : (
          <EarningsChart days={data} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

export default function HistoryPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.history'), t('history.metaDescription', { days: EARNINGS_DAYS }));
  const [filter, setFilter] = useState<Filter>('all');
  const [page, setPage] = useState(1);
  const history = useTransactionHistory(filter, page);
  const data = history.data;

  return (
    <Stack gap="6">
      <PageHeader title={t('nav.history')} subtitle={t('history.subtitle')} />
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
              {t('history.transactions')}
            </Heading>
            <FilterButtons
              filter={filter}
              onFilter={(value) => {
                setFilter(value);
                setPage(1);
              }}
            />
          </Flex>
          {history.isLoading ? (
            <Stack gap="3">
              {Array.from({ length: 6 }, (_, i) => (
                <Skeleton key={i} h="12" />
              ))}
            </Stack>
          ) : history.isError || !data ? (
            <ErrorState title={t('history.loadFailed')} onRetry={() => void history.refetch()} />
          ) : data.items.length === 0 ? (
            <EmptyState
              icon={<LuHistory />}
              title={filter === 'all' ? t('transactions.emptyTitle') : t('history.emptyOfType')}
              description={t('transactions.emptyText')}
            />
          ) : (
            <Box
              as="ul"
              listStyleType="none"
              aria-busy={history.isFetching}
              opacity={history.isPlaceholderData ? 0.6 : 1}
            >
              {data.items.map((row) => (
                <TransactionRow key={row.id} transaction={row} />
              ))}
            </Box>
          )}
          {data && data.pageCount > 1 ? (
            <Pager page={page} pageCount={data.pageCount} onPage={setPage} />
          ) : null}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function FilterButtons({ filter, onFilter }: { filter: Filter; onFilter: (filter: Filter) => void }) {
  const { t } = useTranslation();
  return (
    <HStack role="group" aria-label={t('history.filterLabel')} gap="2" flexWrap="wrap">
      {FILTERS.map((f) => (
        <Button
          key={f.value}
          size="xs"
          borderRadius="full"
          variant={filter === f.value ? 'solid' : 'outline'}
          colorPalette={filter === f.value ? 'brand' : 'gray'}
          aria-pressed={filter === f.value}
          onClick={() => onFilter(f.value)}
        >
          {t(f.labelKey)}
        </Button>
      ))}
    </HStack>
  );
}

function Pager({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex as="nav" aria-label={t('history.pages')} justify="space-between" align="center" gap="3" pt="2">
      <Button
        size="sm"
        variant="outline"
        colorPalette="gray"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        <LuChevronLeft /> {t('history.previous')}
      </Button>
      <Text textStyle="sm" color="fg.muted" aria-live="polite">
        {t('history.pageOf', { page, count: pageCount })}
      </Text>
      <Button
        size="sm"
        variant="outline"
        colorPalette="gray"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
      >
        {t('history.next')} <LuChevronRight />
      </Button>
    </Flex>
  );
}

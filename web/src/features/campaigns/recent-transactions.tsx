import { Box, Card, Heading, Link, Skeleton, Stack } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ErrorState } from '../../components/error-state.tsx';
import { TransactionRow } from '../history/transaction-row.tsx';
import { useTransactions } from './use-transactions.ts';
import { useTranslation } from 'react-i18next';

/** The Dashboard shows the latest 10 (docs/spec/product-spec.md §9). */
export const RECENT_TRANSACTIONS = 10;

/** Dashboard "Recent Transactions": description or type, date, signed amount (green / red). */
export function RecentTransactions() {
  const { t } = useTranslation();
  const { data, isLoading, isError, refetch } = useTransactions();
  const rows = (data ?? []).slice(0, RECENT_TRANSACTIONS);
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Header pb="0" flexDirection="row" justifyContent="space-between" alignItems="baseline" gap="3">
        <Heading as="h2" textStyle="lg" fontWeight="semibold">
          {t('transactions.recent')}
        </Heading>
        <Link asChild color="brand.fg" textStyle="sm" fontWeight="medium">
          <RouterLink to="/history">{t('transactions.viewAll')}</RouterLink>
        </Link>
      </Card.Header>
      <Card.Body pt="2">
        {isLoading ? (
          <Stack gap="3" py="2">
            <Skeleton h="10" />
            <Skeleton h="10" />
            <Skeleton h="10" />
          </Stack>
        ) : isError ? (
          <ErrorState size="sm" title={t('transactions.loadFailed')} onRetry={() => void refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState title={t('transactions.emptyTitle')} description={t('transactions.emptyText')} />
        ) : (
          <Box as="ul" listStyleType="none">
            {rows.map((row) => (
              <TransactionRow key={row.id} transaction={row} />
            ))}
          </Box>
        )}
      </Card.Body>
    </Card.Root>
  );
}

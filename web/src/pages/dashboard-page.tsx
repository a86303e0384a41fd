import { Button, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react';
import { parseMoney } from '@shared/money.ts';
import { LuCirclePlus, LuCoins, LuServer, LuStar, LuWallet } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
import { ErrorState } from '../components/error-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { StatCard } from '../components/stat-card.tsx';
import { MyServersList } from '../features/campaigns/my-servers-list.tsx';
import { RecentTransactions } from '../features/campaigns/recent-transactions.tsx';
import { useMyServers } from '../features/campaigns/use-my-servers.ts';
import { useTransactionSummary } from '../features/campaigns/use-transactions.ts';
import { formatAmount } from '../lib/format.ts';
import { useLocale } from '../lib/i18n.ts';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useTranslation } from 'react-i18next';

export default function DashboardPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.dashboard'));
  const { user } = useAuth();
  const balance = user?.coins ?? '0.00';

  return (
    <Stack gap="6">
      <PageHeader
        title={t('nav.dashboard')}
        subtitle={t('dashboard.subtitle')}
        actions={
          <Button asChild colorPalette="brand">
            <RouterLink to="/submit">
              <LuCirclePlus /> {t('dashboard.submitServer')}
            </RouterLink>
          </Button>
        }
      />
      <Figures balance={balance} />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <MyServersList balanceCents={parseMoney(balance) ?? 0} />
        <RecentTransactions />
      </SimpleGrid>
    </Stack>
  );
}

/** The four stat cards (earned, servers, featured, balance); a failed list says so, with Retry. */
function Figures({ balance }: { balance: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const myServers = useMyServers();
  const summaryQuery = useTransactionSummary();
  const servers = myServers.data;
  const summary = summaryQuery.data;
  // A figure whose list failed is not zero: the stats say they could not be loaded, with a Retry.
  const figuresFailed = myServers.isError || summaryQuery.isError;
  const unknown = (failed: boolean) =>
    failed ? (
      <span title={t('dashboard.couldNotLoad')} aria-label={t('dashboard.unknown')}>
        —
      </span>
    ) : (
      <Skeleton h="7" w="16" />
    );
  const live = (servers ?? []).filter((s) => !s.canceled);
  // The same Discord server submitted twice counts once (no-bot servers have no id: keyed by invite).
  const uniqueServers = new Set(live.map((s) => s.serverId ?? s.inviteLink)).size;
  const featured = live.filter((s) => s.isFeatured && s.active).length;

  return (
    <>
      {figuresFailed ? (
        <ErrorState
          size="sm"
          title={t('dashboard.totalsFailed')}
          description={t('dashboard.totalsFailedHint')}
          onRetry={() => {
            if (myServers.isError) void myServers.refetch();
            if (summaryQuery.isError) void summaryQuery.refetch();
          }}
        />
      ) : null}
      <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
        <StatCard
          label={t('dashboard.totalCoins')}
          value={summary ? <CoinAmount value={summary.earned} size="lg" /> : unknown(summaryQuery.isError)}
          helpText={t('dashboard.earnedAllTime')}
          icon={<LuCoins />}
          accent="gold"
        />
        <StatCard
          label={t('dashboard.myServers')}
          value={servers ? uniqueServers : unknown(myServers.isError)}
          helpText={t('dashboard.uniqueServers')}
          icon={<LuServer />}
        />
        <StatCard
          label={t('dashboard.featured')}
          value={servers ? featured : unknown(myServers.isError)}
          helpText={t('dashboard.activeFeatured')}
          icon={<LuStar />}
          accent="gold"
        />
        <StatCard
          label={t('dashboard.balance')}
          value={formatAmount(balance, locale)}
          helpText={
            summary
              ? t('dashboard.spent', { coins: formatAmount(summary.spent, locale) })
              : t('dashboard.available')
          }
          icon={<LuWallet />}
          accent="green"
        />
      </SimpleGrid>
    </>
  );
}

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
import { formatCoins } from '../lib/format.ts';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export default function DashboardPage() {
  useDocumentTitle('Dashboard');
  const { user } = useAuth();
  const myServers = useMyServers();
  const summaryQuery = useTransactionSummary();
  const servers = myServers.data;
  const summary = summaryQuery.data;
  // A figure whose list failed is not zero: the stats say they could not be loaded, with a Retry.
  const figuresFailed = myServers.isError || summaryQuery.isError;
  const unknown = (failed: boolean) =>
    failed ? (
      <span title="Could not be loaded" aria-label="Unknown">
        —
      </span>
    ) : (
      <Skeleton h="7" w="16" />
    );
  const balance = user?.coins ?? '0.00';
  const live = (servers ?? []).filter((s) => !s.canceled);
  // The same Discord server submitted twice counts once (no-bot servers have no id: keyed by invite).
  const uniqueServers = new Set(live.map((s) => s.serverId ?? s.inviteLink)).size;
  const featured = live.filter((s) => s.isFeatured && s.active).length;

  return (
    <Stack gap="6">
      <PageHeader
        title="Dashboard"
        subtitle="Your coins, your servers and your latest activity."
        actions={
          <Button asChild colorPalette="brand">
            <RouterLink to="/submit">
              <LuCirclePlus /> Submit a Server
            </RouterLink>
          </Button>
        }
      />
      {figuresFailed ? (
        <ErrorState
          size="sm"
          title="Could not load your totals."
          description="Total Coins, My Servers and Featured are unknown until they load."
          onRetry={() => {
            if (myServers.isError) void myServers.refetch();
            if (summaryQuery.isError) void summaryQuery.refetch();
          }}
        />
      ) : null}
      <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
        <StatCard
          label="Total Coins"
          value={summary ? <CoinAmount value={summary.earned} size="lg" /> : unknown(summaryQuery.isError)}
          helpText="Earned all time"
          icon={<LuCoins />}
          accent="gold"
        />
        <StatCard
          label="My Servers"
          value={servers ? uniqueServers : unknown(myServers.isError)}
          helpText="Unique servers"
          icon={<LuServer />}
        />
        <StatCard
          label="Featured"
          value={servers ? featured : unknown(myServers.isError)}
          helpText="Active featured"
          icon={<LuStar />}
          accent="gold"
        />
        <StatCard
          label="Balance"
          value={formatCoins(balance)}
          helpText={summary ? `${summary.spent} spent` : 'Available'}
          icon={<LuWallet />}
          accent="green"
        />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <MyServersList balanceCents={parseMoney(balance) ?? 0} />
        <RecentTransactions />
      </SimpleGrid>
    </Stack>
  );
}

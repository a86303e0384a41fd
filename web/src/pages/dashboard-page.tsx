import { Button, SimpleGrid, Stack } from '@chakra-ui/react';
import { parseMoney } from '@shared/money.ts';
import { LuCirclePlus, LuCoins, LuServer, LuStar, LuWallet } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
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
  const { data: servers } = useMyServers();
  const { data: summary } = useTransactionSummary();
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
      <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
        <StatCard
          label="Total Coins"
          value={<CoinAmount value={summary?.earned ?? '0.00'} size="lg" />}
          helpText="Earned all time"
          icon={<LuCoins />}
          accent="gold"
        />
        <StatCard label="My Servers" value={uniqueServers} helpText="Unique servers" icon={<LuServer />} />
        <StatCard
          label="Featured"
          value={featured}
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

import { Box, Button, Card, Flex, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuDownload, LuHistory, LuLogOut } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { UserAvatar } from '../components/user-avatar.tsx';
import { DeleteAccountDialog } from '../features/account/delete-account-dialog.tsx';
import { ReminderSettings } from '../features/account/reminder-settings.tsx';
import { downloadAccountData, useSignOutEverywhere } from '../features/account/use-account-actions.ts';
import { errorMessage } from '../lib/api.ts';
import { formatDate } from '../lib/format.ts';
import { toast } from '../lib/toaster.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

function Section({ title, children, tone }: { title: string; children: React.ReactNode; tone?: 'danger' }) {
  return (
    <Card.Root
      as="section"
      variant="outline"
      bg="bg.panel"
      borderColor={tone === 'danger' ? 'red.muted' : 'border'}
      borderRadius="xl"
    >
      <Card.Body p="card" gap="3">
        <Heading as="h2" textStyle="sectionTitle">
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

export default function AccountPage() {
  useDocumentTitle('Account', 'Your profile, your data and your sessions.');
  const { user } = useAuth();
  const signOutEverywhere = useSignOutEverywhere();
  const [exporting, setExporting] = useState(false);
  if (!user) return null;

  const exportData = () => {
    setExporting(true);
    downloadAccountData()
      .then(() => toast({ title: 'Export ready', description: 'Your data was downloaded as a JSON file.' }))
      .catch((err: unknown) =>
        toast({
          title: 'Error',
          description: errorMessage(err, 'Failed to export your data'),
          variant: 'destructive',
        }),
      )
      .finally(() => setExporting(false));
  };

  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader title="Account" subtitle="Your profile, your data and your sessions." />
      <Section title="Profile">
        <Flex gap="4" align="center" wrap="wrap">
          <UserAvatar username={user.discordUsername} avatarUrl={user.avatarUrl} size="lg" />
          <Box minW="0" flex="1">
            <Text fontWeight="semibold" textStyle="lg" truncate>
              {user.discordUsername}
            </Text>
            <Text textStyle="sm" color="fg.muted">
              Signed in with Discord · member since {formatDate(user.createdAt)}
            </Text>
          </Box>
          <CoinAmount value={user.coins} size="lg" suffix="coins" />
        </Flex>
        <Link asChild color="brand.fg" textStyle="sm" alignSelf="flex-start">
          <RouterLink to="/history">
            <LuHistory /> Transaction history
          </RouterLink>
        </Link>
      </Section>

      <ReminderSettings />

      <Section title="Your data">
        <Text textStyle="sm" color="fg.muted">
          Download everything we hold about you (profile, transactions, servers, joins, social tasks, rewards
          and payments) as a JSON file.
        </Text>
        <Button
          variant="outline"
          colorPalette="gray"
          alignSelf="flex-start"
          onClick={exportData}
          loading={exporting}
        >
          <LuDownload /> Export my data
        </Button>
      </Section>

      <Section title="Sessions">
        <Text textStyle="sm" color="fg.muted">
          Signed in on a shared or lost device? End every session, on this device and all others.
        </Text>
        <HStack>
          <Button
            variant="outline"
            colorPalette="gray"
            onClick={() => signOutEverywhere.mutate()}
            loading={signOutEverywhere.isPending}
          >
            <LuLogOut /> Sign out everywhere
          </Button>
        </HStack>
      </Section>

      <Section title="Delete account" tone="danger">
        <Text textStyle="sm" color="fg.muted">
          Deleting removes your name, avatar and e-mail, ends your campaigns and signs you out everywhere.
        </Text>
        <DeleteAccountDialog username={user.discordUsername} />
      </Section>
    </Stack>
  );
}

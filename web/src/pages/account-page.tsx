import { Box, Button, Card, Flex, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuDownload, LuHistory, LuLogOut } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { UserAvatar } from '../components/user-avatar.tsx';
import { AccessTokensSection } from '../features/account/access-tokens-section.tsx';
import { DeleteAccountDialog } from '../features/account/delete-account-dialog.tsx';
import { ReminderSettings } from '../features/account/reminder-settings.tsx';
import { downloadAccountData, useSignOutEverywhere } from '../features/account/use-account-actions.ts';
import { errorMessage } from '../lib/api.ts';
import { formatDate } from '../lib/format.ts';
import { toast } from '../lib/toaster.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useTranslation } from 'react-i18next';
import { LanguageSwitcher } from '../features/account/language-switcher.tsx';
import { useLocale } from '../lib/i18n.ts';

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
  const { t } = useTranslation();
  useDocumentTitle(t('nav.account'), t('account.subtitle'));
  const { user } = useAuth();
  const signOutEverywhere = useSignOutEverywhere();
  if (!user) return null;

  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader title={t('nav.account')} subtitle={t('account.subtitle')} />
      <ProfileSection user={user} />

      <Section title={t('account.language')}>
        <LanguageSwitcher />
      </Section>

      <ReminderSettings />

      <YourDataSection />

      <Section title={t('account.sessions')}>
        <Text textStyle="sm" color="fg.muted">
          {t('account.sessionsText')}
        </Text>
        <HStack>
          <Button
            variant="outline"
            colorPalette="gray"
            onClick={() => signOutEverywhere.mutate()}
            loading={signOutEverywhere.isPending}
          >
            <LuLogOut /> {t('account.signOutEverywhere')}
          </Button>
        </HStack>
      </Section>

      <Section title={t('account.tokens.title')}>
        <AccessTokensSection />
      </Section>

      <Section title={t('account.delete')} tone="danger">
        <Text textStyle="sm" color="fg.muted">
          {t('account.deleteText')}
        </Text>
        <DeleteAccountDialog username={user.discordUsername} />
      </Section>
    </Stack>
  );
}

function ProfileSection({ user }: { user: NonNullable<ReturnType<typeof useAuth>['user']> }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Section title={t('account.profile')}>
      <Flex gap="4" align="center" wrap="wrap">
        <UserAvatar username={user.discordUsername} avatarUrl={user.avatarUrl} size="lg" />
        <Box minW="0" flex="1">
          <Text fontWeight="semibold" textStyle="lg" truncate>
            {user.discordUsername}
          </Text>
          <Text textStyle="sm" color="fg.muted">
            {t('account.memberSince', { date: formatDate(user.createdAt, undefined, locale) })}
          </Text>
        </Box>
        <CoinAmount value={user.coins} size="lg" suffix={t('common.coinsWord')} />
      </Flex>
      <Link asChild color="brand.fg" textStyle="sm" alignSelf="flex-start">
        <RouterLink to="/history">
          <LuHistory /> {t('nav.history')}
        </RouterLink>
      </Link>
    </Section>
  );
}

/** "Your data": the account export as a JSON file. */
function YourDataSection() {
  const { t } = useTranslation();
  const [exporting, setExporting] = useState(false);
  const exportData = () => {
    setExporting(true);
    downloadAccountData()
      .then(() => toast({ title: t('account.exportReady'), description: t('account.exportReadyText') }))
      .catch((err: unknown) =>
        toast({
          title: t('common.error'),
          description: errorMessage(err, t('account.exportFailed')),
          variant: 'destructive',
        }),
      )
      .finally(() => setExporting(false));
  };
  return (
    <Section title={t('account.yourData')}>
      <Text textStyle="sm" color="fg.muted">
        {t('account.yourDataText')}
      </Text>
      <Button
        variant="outline"
        colorPalette="gray"
        alignSelf="flex-start"
        onClick={exportData}
        loading={exporting}
      >
        <LuDownload /> {t('account.export')}
      </Button>
    </Section>
  );
}

import { Box, Button, Container, Flex, HStack, Icon, Link, Text, VisuallyHidden } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import type { ApiUser } from '@shared/api-types.ts';
import { LuListChecks, LuLogOut } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { CoinAmount } from '../components/coin-amount.tsx';
import { Logo } from '../components/logo.tsx';
import { Tooltip } from '../components/tooltip.tsx';
import { UserAvatar } from '../components/user-avatar.tsx';
import { useLogout } from '../lib/use-logout.ts';
import { useTranslation } from 'react-i18next';
import { formatMoneyText } from '@shared/i18n/index.ts';
import { useLocale } from '../lib/i18n.ts';

/** Announces balance changes politely to screen readers (not the first value: that is just the page). */
function useBalanceAnnouncement(coins: string): string {
  const { t } = useTranslation();
  const locale = useLocale();
  const previous = useRef(coins);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (previous.current === coins) return;
    previous.current = coins;
    setMessage(t('header.balanceUpdated', { coins: formatMoneyText(coins, locale) }));
  }, [coins, t, locale]);
  return message;
}

export function AppHeader({ user }: { user: ApiUser }) {
  const { logout, isPending } = useLogout();
  const { t } = useTranslation();
  return (
    <Box as="header" bg="bg.subtle" borderBottomWidth="1px" borderColor="border">
      <Container maxW="7xl" px={{ base: '3', md: '6' }}>
        <Flex h={{ base: '14', md: '16' }} align="center" justify="space-between" gap="2">
          <Link asChild textDecoration="none" _hover={{ textDecoration: 'none' }} minW="0">
            <RouterLink to="/">
              <Logo />
            </RouterLink>
          </Link>
          <HStack gap={{ base: '1.5', md: '3' }} minW="0">
            <HeaderBalance coins={user.coins} />
            <Button
              asChild
              size="sm"
              variant="ghost"
              colorPalette="gray"
              display={{ base: 'none', md: 'inline-flex' }}
            >
              <RouterLink to="/joins">
                <Icon as={LuListChecks} /> {t('nav.joins')}
              </RouterLink>
            </Button>
            <AccountLink user={user} />
            <Button
              size="sm"
              variant="outline"
              colorPalette="gray"
              borderColor="border.emphasized"
              onClick={logout}
              loading={isPending}
              aria-label={t('header.logout')}
              px={{ base: '2', sm: '3' }}
            >
              <Icon as={LuLogOut} />
              <Box as="span" display={{ base: 'none', sm: 'inline' }}>
                {t('header.logout')}
              </Box>
            </Button>
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}

/** The balance pill, and its changes said to screen readers. */
function HeaderBalance({ coins }: { coins: string }) {
  const { t } = useTranslation();
  const announcement = useBalanceAnnouncement(coins);
  return (
    <>
      <Tooltip content={t('header.balanceTooltip')}>
        <Box
          px={{ base: '2', md: '3' }}
          py="1.5"
          borderRadius="full"
          display="flex"
          alignItems="center"
          bg="gold.subtle"
          borderWidth="1px"
          borderColor="gold.emphasized"
          data-testid="coin-balance"
        >
          <VisuallyHidden>{t('header.balanceLabel')} </VisuallyHidden>
          <CoinAmount value={coins} size="sm" />
        </Box>
      </Tooltip>
      <VisuallyHidden aria-live="polite" data-testid="balance-announcement">
        {announcement}
      </VisuallyHidden>
    </>
  );
}

function AccountLink({ user }: { user: ApiUser }) {
  const { t } = useTranslation();
  return (
    <Link
      asChild
      display="flex"
      alignItems="center"
      gap={{ base: '1.5', md: '2' }}
      minW="0"
      color="fg"
      textDecoration="none"
      borderRadius="full"
      pe="2"
      _hover={{ bg: 'bg.muted', textDecoration: 'none' }}
    >
      <RouterLink to="/account">
        <VisuallyHidden>{t('header.accountLabel')} </VisuallyHidden>
        <Box aria-hidden display="contents">
          <UserAvatar username={user.discordUsername} avatarUrl={user.avatarUrl} size="sm" />
        </Box>
        <Text textStyle="sm" fontWeight="medium" truncate maxW={{ base: '14', sm: '32', md: '40' }}>
          {user.discordUsername}
        </Text>
      </RouterLink>
    </Link>
  );
}

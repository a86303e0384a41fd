import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Container,
  Flex,
  Heading,
  HStack,
  Icon,
  Link,
  List,
  SimpleGrid,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ComponentType, SVGProps } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import {
  CircleCheckIcon,
  CoinsIcon,
  DiscordIcon,
  LockIcon,
  StarIcon,
  TrendingUpIcon,
} from '../components/entry-icons.tsx';
import { Logo } from '../components/logo.tsx';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { clearSessionEnded, wasAccountDeleted, wasSessionEnded } from '../lib/session-ended.ts';
import { PROMOTION } from '@shared/campaign-kinds.ts';

interface Feature {
  titleKey: 'login.earn.title' | 'login.grow.title' | 'login.featured.title';
  textKey: 'login.earn.text' | 'login.grow.text' | 'login.featured.text';
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  palette: 'gold' | 'brand' | 'purple';
}

const FEATURES: readonly Feature[] = [
  {
    titleKey: 'login.earn.title',
    textKey: 'login.earn.text',
    icon: CoinsIcon,
    palette: 'gold',
  },
  {
    titleKey: 'login.grow.title',
    textKey: 'login.grow.text',
    icon: TrendingUpIcon,
    palette: 'brand',
  },
  {
    titleKey: 'login.featured.title',
    textKey: 'login.featured.text',
    icon: StarIcon,
    palette: 'gold',
  },
];

const ACCESSED = [
  { itemKey: 'login.access.profile' },
  { itemKey: 'login.access.email' },
  { itemKey: 'login.access.joins' },
] as const;

function signInWithDiscord() {
  clearSessionEnded();
  window.location.href = '/api/auth/discord';
}

function FeatureCard({ feature }: { feature: Feature }) {
  const { t } = useTranslation();
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel/80"
      borderColor="border"
      borderRadius="2xl"
      transition="transform 200ms, border-color 200ms"
      _hover={{ transform: 'translateY(-2px)', borderColor: 'border.emphasized' }}
    >
      <Card.Body gap="3" p={{ base: '5', md: '6' }}>
        <Box
          colorPalette={feature.palette}
          bg="colorPalette.subtle"
          color="colorPalette.fg"
          borderWidth="1px"
          borderColor="colorPalette.muted"
          borderRadius="xl"
          boxSize="11"
          display="grid"
          placeItems="center"
          fontSize="xl"
        >
          <Icon as={feature.icon} />
        </Box>
        <Heading as="h3" textStyle="lg" fontWeight="semibold">
          {t(feature.titleKey)}
        </Heading>
        <Text color="fg.muted" textStyle="sm" lineHeight="tall">
          {t(feature.textKey, { coins: PROMOTION.costCoins })}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * `prerender`: the static login page (scripts/build/pages.ts → login.html, served to signed-out
 * visitors without the app's JavaScript). Both notices are in the markup, hidden; web/src/login-static.ts
 * shows the one that applies and wires the button.
 */
function GetStartedCard({ prerender }: { prerender: boolean }) {
  const { t } = useTranslation();
  return (
    <Card.Root
      bg="bg.panel"
      borderWidth="1px"
      borderColor="brand.emphasized"
      borderRadius="2xl"
      boxShadow="0 20px 60px -20px rgba(88,101,242,0.45)"
      overflow="hidden"
    >
      <Box h="1" bgGradient="to-r" gradientFrom="brand.500" gradientTo="gold.500" />
      <Card.Body gap="5" p={{ base: '6', md: '8' }}>
        <Stack gap="1.5">
          <Heading as="h2" textStyle="2xl" fontWeight="bold">
            {t('login.getStarted')}
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            {t('login.getStartedText')}
          </Text>
        </Stack>
        <LoginNotices prerender={prerender} />
        <AccessSummary />
        <Button
          size="xl"
          colorPalette="brand"
          onClick={prerender ? undefined : signInWithDiscord}
          data-sign-in=""
          borderRadius="xl"
          fontWeight="semibold"
          boxShadow="0 8px 24px rgba(88,101,242,0.4)"
          _hover={{ bg: 'brand.600' }}
        >
          <DiscordIcon />
          {t('login.continue')}
        </Button>
        <Text textStyle="xs" color="fg.subtle" textAlign="center">
          <Trans
            i18nKey="login.agree"
            components={{
              terms: <Link href="/terms" color="brand.fg" />,
              privacy: <Link href="/privacy" color="brand.fg" />,
            }}
          />
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/** Why the visitor is here again: the session ended, the account was deleted, or sign-in failed. */
function LoginNotices({ prerender }: { prerender: boolean }) {
  const sessionEnded = !prerender && wasSessionEnded();
  const loginFailed = !prerender && new URLSearchParams(window.location.search).get('login') === 'failed';
  const accountDeleted = !prerender && wasAccountDeleted(window.location.search);
  const { t } = useTranslation();
  return (
    <>
      {(prerender || sessionEnded) && (
        <Alert.Root
          status="warning"
          borderRadius="xl"
          data-testid="session-ended"
          hidden={prerender}
          data-login-notice="session-ended"
        >
          <Alert.Indicator />
          <Alert.Description>{t('login.sessionEnded')}</Alert.Description>
        </Alert.Root>
      )}
      {(prerender || accountDeleted) && (
        <Alert.Root
          status="success"
          borderRadius="xl"
          hidden={prerender}
          data-login-notice="account-deleted"
          data-testid="account-deleted"
        >
          <Alert.Indicator />
          <Alert.Description>{t('login.accountDeleted', { product: PRODUCT_NAME })}</Alert.Description>
        </Alert.Root>
      )}
      {(prerender || loginFailed) && (
        <Alert.Root status="error" borderRadius="xl" hidden={prerender} data-login-notice="login-failed">
          <Alert.Indicator />
          <Alert.Description>{t('login.failed')}</Alert.Description>
        </Alert.Root>
      )}
    </>
  );
}

/** What signing in with Discord lets the app read, and that there is no password. */
function AccessSummary() {
  const { t } = useTranslation();
  return (
    <Box bg="bg.subtle" borderRadius="xl" borderWidth="1px" borderColor="border" p="4">
      <Text
        textStyle="xs"
        fontWeight="semibold"
        color="fg.subtle"
        textTransform="uppercase"
        letterSpacing="wider"
        mb="3"
      >
        {t('login.accessTitle')}
      </Text>
      <List.Root gap="2.5" variant="plain">
        {ACCESSED.map(({ itemKey }) => (
          <List.Item key={itemKey} alignItems="center" textStyle="sm">
            <List.Indicator asChild color="green.400">
              <CircleCheckIcon />
            </List.Indicator>
            {t(itemKey)}
          </List.Item>
        ))}
      </List.Root>
      <HStack mt="3.5" gap="2" color="fg.muted" textStyle="sm">
        <Icon as={LockIcon} color="gold.fg" />
        <Text>{t('login.noPassword')}</Text>
      </HStack>
    </Box>
  );
}

export default function LoginPage({ prerender = false }: { prerender?: boolean }) {
  const { t } = useTranslation();
  return (
    <Flex direction="column" minH="100dvh">
      <Container as="header" maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '4', md: '6' }}>
        <Logo />
      </Container>

      <Container as="main" maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '6', md: '12' }} flex="1">
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '8', lg: '16' }} alignItems="center">
          <Stack
            gap={{ base: '5', md: '6' }}
            textAlign={{ base: 'center', lg: 'start' }}
            align={{ base: 'center', lg: 'flex-start' }}
          >
            <Badge colorPalette="gold" variant="subtle" size="lg" borderRadius="full" px="3" py="1">
              <CoinsIcon />
              {t('login.freeToStart')}
            </Badge>
            <Heading
              as="h1"
              fontSize={{ base: '5xl', md: '7xl' }}
              fontWeight="black"
              letterSpacing="tighter"
              lineHeight="1"
              bgGradient="to-r"
              gradientFrom="brand.300"
              gradientVia="brand.500"
              gradientTo="gold.400"
              bgClip="text"
            >
              {PRODUCT_NAME}
            </Heading>
            <Text textStyle={{ base: 'lg', md: '2xl' }} fontWeight="semibold" color="fg">
              {t('login.tagline')}
            </Text>
            <Text color="fg.muted" textStyle={{ base: 'md', md: 'lg' }} maxW="lg">
              {t('login.intro')}
            </Text>
          </Stack>
          <Box w="full" maxW={{ base: 'md', lg: 'none' }} mx="auto">
            <GetStartedCard prerender={prerender} />
          </Box>
        </SimpleGrid>

        <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', md: '6' }} mt={{ base: '12', md: '20' }}>
          {FEATURES.map((feature) => (
            <FeatureCard key={feature.titleKey} feature={feature} />
          ))}
        </SimpleGrid>
      </Container>

      <Box as="footer" borderTopWidth="1px" borderColor="border" mt="12">
        <Container
          maxW="6xl"
          px={{ base: '4', md: '6' }}
          py="6"
          display="flex"
          flexDirection={{ base: 'column', md: 'row' }}
          gap="3"
          justifyContent="space-between"
          alignItems={{ base: 'center', md: 'center' }}
          textAlign="center"
        >
          <HStack gap="5">
            <Link href="/terms" color="fg.muted" textStyle="sm">
              {t('nav.terms')}
            </Link>
            <Link href="/privacy" color="fg.muted" textStyle="sm">
              {t('nav.privacy')}
            </Link>
          </HStack>
          <Text textStyle="xs" color="fg.subtle">
            {t('brand.disclaimer', { product: PRODUCT_NAME })}
          </Text>
        </Container>
      </Box>
    </Flex>
  );
}

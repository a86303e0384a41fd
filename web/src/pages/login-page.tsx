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
import {
  CircleCheckIcon,
  CoinsIcon,
  DiscordIcon,
  LockIcon,
  StarIcon,
  TrendingUpIcon,
} from '../components/entry-icons.tsx';
import { Logo } from '../components/logo.tsx';
import { DISCLAIMER, PRODUCT_NAME } from '../lib/brand.ts';
import {
  ACCOUNT_DELETED_MESSAGE,
  clearSessionEnded,
  SESSION_ENDED_MESSAGE,
  wasAccountDeleted,
  wasSessionEnded,
} from '../lib/session-ended.ts';
import { PROMOTION } from '@shared/campaign-kinds.ts';

interface Feature {
  title: string;
  text: string;
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  palette: 'gold' | 'brand' | 'purple';
}

const FEATURES: readonly Feature[] = [
  {
    title: 'Earn Coins',
    text: 'Join servers, complete social tasks and claim hourly, bonus and daily rewards. New members start with a 5-coin welcome bonus.',
    icon: CoinsIcon,
    palette: 'gold',
  },
  {
    title: 'Grow Your Server',
    text: 'Spend coins to list your server and welcome real members who join through the platform: 1 coin per member.',
    icon: TrendingUpIcon,
    palette: 'brand',
  },
  {
    title: 'Featured Placement',
    text: `Promote your server to the top of Discover for ${PROMOTION.costCoins} coins and reach members faster with a bigger join reward.`,
    icon: StarIcon,
    palette: 'gold',
  },
];

const ACCESSED = [
  'Your Discord username and avatar',
  'Your e-mail address',
  'The ability to verify server joins',
];

function signInWithDiscord() {
  clearSessionEnded();
  window.location.href = '/api/auth/discord';
}

function FeatureCard({ feature }: { feature: Feature }) {
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
          {feature.title}
        </Heading>
        <Text color="fg.muted" textStyle="sm" lineHeight="tall">
          {feature.text}
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
// eslint-disable-next-line max-lines-per-function -- login texts change in parallel (wave3s12-texts); split after that merge (notes-funcs.md)
function GetStartedCard({ prerender }: { prerender: boolean }) {
  const sessionEnded = !prerender && wasSessionEnded();
  const loginFailed = !prerender && new URLSearchParams(window.location.search).get('login') === 'failed';
  const accountDeleted = !prerender && wasAccountDeleted(window.location.search);
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
            Get Started
          </Heading>
          <Text color="fg.muted" textStyle="sm">
            Sign in with Discord to start earning coins in seconds.
          </Text>
        </Stack>
        {(prerender || sessionEnded) && (
          <Alert.Root
            status="warning"
            borderRadius="xl"
            data-testid="session-ended"
            hidden={prerender}
            data-login-notice="session-ended"
          >
            <Alert.Indicator />
            <Alert.Description>{SESSION_ENDED_MESSAGE}</Alert.Description>
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
            <Alert.Description>{ACCOUNT_DELETED_MESSAGE}</Alert.Description>
          </Alert.Root>
        )}
        {(prerender || loginFailed) && (
          <Alert.Root status="error" borderRadius="xl" hidden={prerender} data-login-notice="login-failed">
            <Alert.Indicator />
            <Alert.Description>Your Discord sign-in did not complete. Please try again.</Alert.Description>
          </Alert.Root>
        )}
        <Box bg="bg.subtle" borderRadius="xl" borderWidth="1px" borderColor="border" p="4">
          <Text
            textStyle="xs"
            fontWeight="semibold"
            color="fg.subtle"
            textTransform="uppercase"
            letterSpacing="wider"
            mb="3"
          >
            What we access
          </Text>
          <List.Root gap="2.5" variant="plain">
            {ACCESSED.map((item) => (
              <List.Item key={item} alignItems="center" textStyle="sm">
                <List.Indicator asChild color="green.400">
                  <CircleCheckIcon />
                </List.Indicator>
                {item}
              </List.Item>
            ))}
          </List.Root>
          <HStack mt="3.5" gap="2" color="fg.muted" textStyle="sm">
            <Icon as={LockIcon} color="gold.fg" />
            <Text>We never ask for your password.</Text>
          </HStack>
        </Box>
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
          Continue with Discord
        </Button>
        <Text textStyle="xs" color="fg.subtle" textAlign="center">
          By continuing you agree to our{' '}
          <Link href="/terms" color="brand.fg">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link href="/privacy" color="brand.fg">
            Privacy Policy
          </Link>
          .
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

export default function LoginPage({ prerender = false }: { prerender?: boolean }) {
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
              Free to start
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
              Grow your Discord community with real members.
            </Text>
            <Text color="fg.muted" textStyle={{ base: 'md', md: 'lg' }} maxW="lg">
              Earn coins by discovering servers you'll love, then spend them to bring new people into your
              own.
            </Text>
          </Stack>
          <Box w="full" maxW={{ base: 'md', lg: 'none' }} mx="auto">
            <GetStartedCard prerender={prerender} />
          </Box>
        </SimpleGrid>

        <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', md: '6' }} mt={{ base: '12', md: '20' }}>
          {FEATURES.map((feature) => (
            <FeatureCard key={feature.title} feature={feature} />
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
              Terms of Service
            </Link>
            <Link href="/privacy" color="fg.muted" textStyle="sm">
              Privacy Policy
            </Link>
          </HStack>
          <Text textStyle="xs" color="fg.subtle">
            {DISCLAIMER}
          </Text>
        </Container>
      </Box>
    </Flex>
  );
}

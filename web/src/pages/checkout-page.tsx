import {
  Box,
  Button,
  Card,
  Center,
  Flex,
  Grid,
  Heading,
  HStack,
  Icon,
  Link,
  Separator,
  Spinner,
  Stack,
  Text,
  VStack,
} from '@chakra-ui/react';
import { Elements } from '@stripe/react-stripe-js';
import type { Appearance, Stripe } from '@stripe/stripe-js';
import { useEffect, useState, type ReactNode } from 'react';
import { LuArrowLeft, LuShieldAlert, LuShieldCheck, LuTriangleAlert } from 'react-icons/lu';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { CoinIcon } from '../components/coin-icon.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { CheckoutForm } from '../features/payments/checkout-form.tsx';
import { getStripe } from '../features/payments/load-stripe.ts';
import { formatPrice, PACK_TEXT, PACKS } from '../features/payments/pack-display.ts';
import { useCreatePaymentIntent } from '../features/payments/use-create-payment-intent.ts';
import { errorMessage, errorStatus } from '../lib/api.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../lib/i18n.ts';
import { formatCount } from '@shared/i18n/index.ts';

// Stripe's Payment Element styled like the rest of the app (dark, Discord blurple).
const APPEARANCE: Appearance = {
  theme: 'night',
  variables: {
    colorPrimary: '#5865F2',
    colorBackground: '#1d2130',
    colorText: '#f2f3f5',
    colorTextSecondary: '#a4aabb',
    colorDanger: '#f87171',
    borderRadius: '10px',
    fontFamily: "'gg sans', 'Inter', 'Noto Sans', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  },
  rules: { '.Input': { border: '1px solid #353b4f' }, '.Tab': { border: '1px solid #353b4f' } },
};

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link asChild color="fg.muted" textStyle="sm" mb="4" _hover={{ color: 'fg' }}>
      <RouterLink to="/buy-coins">
        <LuArrowLeft /> {t('checkout.back')}
      </RouterLink>
    </Link>
  );
}

function Preparing({ label }: { label: string }) {
  return (
    <Center py="24">
      <VStack gap="4">
        <Spinner size="xl" color="brand.solid" borderWidth="3px" aria-label={label} />
        <Text color="fg.muted">{label}</Text>
      </VStack>
    </Center>
  );
}

function NotConfigured() {
  const { t } = useTranslation();
  return (
    <StoppedNotice icon={<LuTriangleAlert />} title={t('checkout.notConfigured')}>
      <Text color="fg.muted" maxW="sm">
        {t('checkout.notConfiguredText')}
      </Text>
      <Button asChild variant="subtle" borderRadius="xl" mt="2">
        <RouterLink to="/buy-coins">{t('checkout.backToBuy')}</RouterLink>
      </Button>
    </StoppedNotice>
  );
}

function LoadFailed() {
  const { t } = useTranslation();
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="2xl" maxW="xl" mx="auto">
      <Card.Body py="10">
        <VStack gap="3" textAlign="center">
          <Icon as={LuTriangleAlert} color="orange.fg" boxSize="8" />
          <Heading as="h2" textStyle="lg">
            {t('checkout.loadFailed')}
          </Heading>
          <Text color="fg.muted" maxW="sm">
            {t('checkout.loadFailedText')}
          </Text>
          <Button variant="subtle" borderRadius="xl" onClick={() => window.location.reload()}>
            {t('common.tryAgain')}
          </Button>
        </VStack>
      </Card.Body>
    </Card.Root>
  );
}

function PurchasesPaused({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <StoppedNotice icon={<LuShieldAlert />} title={t('checkout.paused')}>
      <Text color="fg.muted" maxW="sm" role="alert">
        {message}
      </Text>
      <Text color="fg.subtle" textStyle="sm" maxW="sm">
        {t('checkout.pausedText')}
      </Text>
      <Button asChild variant="subtle" borderRadius="xl" mt="2">
        <RouterLink to="/dashboard">{t('checkout.toDashboard')}</RouterLink>
      </Button>
    </StoppedNotice>
  );
}

/** The page's card when no payment can start here: an orange band, the icon, the title, what to do. */
function StoppedNotice({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderColor="border"
      borderRadius="2xl"
      maxW="xl"
      mx="auto"
      overflow="hidden"
    >
      <Box h="1" bg="orange.500" />
      <Card.Body py={{ base: '10', md: '12' }} px={{ base: '6', md: '10' }}>
        <VStack gap="4" textAlign="center">
          <Box bg="orange.subtle" color="orange.fg" borderRadius="full" p="4" fontSize="2xl">
            {icon}
          </Box>
          <Heading as="h1" textStyle="xl" fontWeight="bold">
            {title}
          </Heading>
          {children}
        </VStack>
      </Card.Body>
    </Card.Root>
  );
}

function OrderSummary({ packageType, coins, price }: { packageType: string; coins: number; price: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const pack = PACKS.find((p) => p.id === packageType);
  const name = pack ? t(PACK_TEXT[pack.id].nameKey) : t('checkout.coinPack');
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="2xl" overflow="hidden">
      <Box h="1" bgGradient="to-r" gradientFrom="brand.500" gradientTo="gold.500" />
      <Card.Body p={{ base: '5', md: '6' }} gap="4">
        <Text as="h2" fontWeight="semibold" textStyle="lg">
          {t('checkout.summary')}
        </Text>
        <HStack gap="3">
          <Box
            bg="gold.subtle"
            borderWidth="1px"
            borderColor="gold.muted"
            borderRadius="xl"
            boxSize="11"
            display="grid"
            placeItems="center"
          >
            <CoinIcon boxSize="6" />
          </Box>
          <Stack gap="0">
            <Text fontWeight="semibold">{name}</Text>
            <Text color="fg.muted" textStyle="sm">
              {t('checkout.addedOnceConfirmed')}
            </Text>
          </Stack>
        </HStack>
        <Separator />
        <Stack gap="2.5" as="dl">
          <Flex justify="space-between">
            <Text as="dt" color="fg.muted">
              {t('checkout.package')}
            </Text>
            <Text as="dd" fontWeight="semibold" data-testid="summary-coins">
              {t('common.coinsFormatted', { count: coins, formatted: formatCount(coins, locale) })}
            </Text>
          </Flex>
          <Separator />
          <Flex justify="space-between" align="baseline">
            <Text as="dt" fontWeight="semibold">
              {t('checkout.total')}
            </Text>
            <Text as="dd" textStyle="2xl" fontWeight="bold" data-testid="summary-total">
              {formatPrice(price, locale)}
            </Text>
          </Flex>
        </Stack>
        <HStack gap="2" color="fg.subtle" textStyle="xs">
          <Icon as={LuShieldCheck} color="green.400" />
          <Text>{t('buy.final')}</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function CheckoutSession({
  publishableKey,
  scriptUrl,
  packageType,
}: {
  publishableKey: string;
  /** Demo mode's Stripe.js stand-in (null: js.stripe.com). */
  scriptUrl: string | null;
  packageType: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useCreatePaymentIntent(packageType, true);
  const [stripe, setStripe] = useState<Stripe | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const clientSecret = session.data?.clientSecret;

  // A dispute hold (403) is explained in place; bouncing to Buy Coins would hide why nothing works.
  const held = session.isError && errorStatus(session.error) === 403;

  // Spec: if creating the payment session fails, go back to Buy Coins without a message.
  useEffect(() => {
    if (session.isError && !held) void navigate('/buy-coins', { replace: true });
  }, [session.isError, held, navigate]);

  // Stripe.js is fetched only here, once a session exists, so no other page ever loads it.
  useEffect(() => {
    if (!clientSecret) return;
    let cancelled = false;
    getStripe(publishableKey, scriptUrl).then(
      (loaded) => {
        if (cancelled) return;
        if (loaded) setStripe(loaded);
        else setLoadFailed(true);
      },
      () => {
        if (!cancelled) setLoadFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [clientSecret, publishableKey, scriptUrl]);

  if (held) return <PurchasesPaused message={errorMessage(session.error, t('checkout.pausedDefault'))} />;
  if (loadFailed) return <LoadFailed />;
  if (!session.data || !clientSecret || !stripe) return <Preparing label={t('checkout.preparing')} />;

  return (
    <>
      <PageHeader title={t('checkout.title')} subtitle={t('checkout.subtitle')} />
      <Grid templateColumns={{ base: '1fr', lg: '3fr 2fr' }} gap={{ base: '5', md: '6' }} alignItems="start">
        <Box order={{ base: 2, lg: 1 }}>
          <Elements stripe={stripe} options={{ clientSecret, appearance: APPEARANCE, loader: 'auto' }}>
            <CheckoutForm price={session.data.package.price} />
          </Elements>
        </Box>
        <Box order={{ base: 1, lg: 2 }}>
          <OrderSummary
            packageType={packageType}
            coins={session.data.package.coins}
            price={session.data.package.price}
          />
        </Box>
      </Grid>
    </>
  );
}

export default function CheckoutPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.checkout'), t('checkout.metaDescription'));
  const [params] = useSearchParams();
  const packageType = params.get('package') || 'small';
  const { config, isLoading } = usePublicConfig();

  return (
    <Box maxW="5xl" mx="auto">
      {config?.stripePublishableKey ? <BackLink /> : null}
      {isLoading ? (
        <Preparing label={t('checkout.preparing')} />
      ) : !config?.stripePublishableKey ? (
        <NotConfigured />
      ) : (
        <CheckoutSession
          key={packageType}
          publishableKey={config.stripePublishableKey}
          scriptUrl={config.stripeJsUrl ?? null}
          packageType={packageType}
        />
      )}
    </Box>
  );
}

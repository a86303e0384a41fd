import { Box, Button, Card, Flex, Heading, HStack, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { FaDiscord } from 'react-icons/fa6';
import { LuInfo, LuLock, LuPackage, LuTriangleAlert, LuZap } from 'react-icons/lu';
import { PageHeader } from '../components/page-header.tsx';
import { PackCard } from '../features/payments/pack-card.tsx';
import { PACKS } from '../features/payments/pack-display.ts';
import { DEFAULT_SUPPORT_URL } from '../lib/brand.ts';
import { usePublicConfig } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';

interface Step {
  titleKey: ParseKeys<'web'>;
  textKey: ParseKeys<'web'>;
  icon: IconType;
}

const STEPS: readonly Step[] = [
  { titleKey: 'buy.steps.choose.title', textKey: 'buy.steps.choose.text', icon: LuPackage },
  { titleKey: 'buy.steps.pay.title', textKey: 'buy.steps.pay.text', icon: LuLock },
  { titleKey: 'buy.steps.deliver.title', textKey: 'buy.steps.deliver.text', icon: LuZap },
];

function HowItWorks() {
  const { t } = useTranslation();
  return (
    <Box as="section" aria-labelledby="how-it-works">
      <Heading id="how-it-works" as="h2" textStyle="xl" fontWeight="bold" mb="4">
        {t('buy.howItWorks')}
      </Heading>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '3', md: '4' }}>
        {STEPS.map((step, index) => (
          <Card.Root
            key={step.titleKey}
            variant="outline"
            bg="bg.panel"
            borderColor="border"
            borderRadius="xl"
          >
            <Card.Body gap="3" p="5">
              <HStack gap="3">
                <Box
                  bg="brand.subtle"
                  color="brand.fg"
                  borderWidth="1px"
                  borderColor="brand.muted"
                  borderRadius="full"
                  boxSize="9"
                  display="grid"
                  placeItems="center"
                  fontWeight="bold"
                  flexShrink={0}
                >
                  {index + 1}
                </Box>
                <Icon as={step.icon} color="gold.fg" boxSize="5" />
                <Text as="h3" fontWeight="semibold">
                  {t(step.titleKey)}
                </Text>
              </HStack>
              <Text color="fg.muted" textStyle="sm" lineHeight="tall">
                {t(step.textKey)}
              </Text>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Box>
  );
}

function HelpCard({ supportUrl }: { supportUrl: string }) {
  const { t } = useTranslation();
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl" overflow="hidden">
      <Card.Body p={{ base: '5', md: '6' }}>
        <Flex
          direction={{ base: 'column', md: 'row' }}
          gap="4"
          align={{ base: 'stretch', md: 'center' }}
          justify="space-between"
        >
          <HStack gap="4" align="flex-start">
            <Box
              bg="brand.subtle"
              color="brand.fg"
              borderRadius="xl"
              boxSize="11"
              display="grid"
              placeItems="center"
              fontSize="xl"
              flexShrink={0}
            >
              <FaDiscord />
            </Box>
            <Stack gap="1">
              <Heading as="h2" textStyle="lg" fontWeight="semibold">
                {t('buy.help.title')}
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                {t('buy.help.text')}
              </Text>
            </Stack>
          </HStack>
          <Button
            asChild
            colorPalette="brand"
            variant="outline"
            borderRadius="xl"
            flexShrink={0}
            // Longer languages wrap on a phone instead of pushing the page sideways (decision 050).
            whiteSpace="normal"
            h="auto"
            minH="10"
            py="2"
            textAlign="center"
          >
            <a href={supportUrl} target="_blank" rel="noopener noreferrer">
              <FaDiscord />
              {t('buy.help.join')}
            </a>
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

/** Payments are off (no Stripe keys): said before any click, in place of a pack that cannot be paid for. */
function PaymentsOff() {
  const { t } = useTranslation();
  return (
    <Card.Root
      role="status"
      variant="outline"
      bg="bg.panel"
      borderColor="orange.muted"
      borderRadius="xl"
      overflow="hidden"
      mb="5"
      data-testid="payments-off"
    >
      <Card.Body p={{ base: '4', md: '5' }}>
        <HStack gap="3" align="flex-start">
          <Box bg="orange.subtle" color="orange.fg" borderRadius="full" p="2.5" flexShrink={0}>
            <LuTriangleAlert />
          </Box>
          <Stack gap="1">
            <Heading as="h2" textStyle="md" fontWeight="semibold">
              {t('buy.off.title')}
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              {t('buy.off.text')}
            </Text>
          </Stack>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export default function BuyCoinsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.buyCoins'), t('buy.metaDescription'));
  const { config } = usePublicConfig();
  const supportUrl = config?.supportUrl || DEFAULT_SUPPORT_URL;
  // The config is in the page's boot data: known at the first render, on the server too.
  const paymentsOff = config !== undefined && !config.stripePublishableKey;

  return (
    <Stack gap={{ base: '8', md: '12' }}>
      <Box>
        <PageHeader title={t('nav.buyCoins')} subtitle={t('buy.subtitle')} />
        {paymentsOff ? <PaymentsOff /> : null}
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap={{ base: '5', md: '6' }} pt="3">
          {PACKS.map((pack) => (
            <PackCard key={pack.id} pack={pack} unavailable={paymentsOff} />
          ))}
        </SimpleGrid>
        <HStack mt="5" gap="2" color="fg.muted" textStyle="sm" justify="center" textAlign="center">
          <Icon as={LuInfo} color="fg.subtle" flexShrink={0} />
          <Text>{t('buy.final')}</Text>
        </HStack>
      </Box>
      <HowItWorks />
      <HelpCard supportUrl={supportUrl} />
    </Stack>
  );
}

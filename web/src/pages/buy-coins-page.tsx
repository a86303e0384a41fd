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

interface Step {
  title: string;
  text: string;
  icon: IconType;
}

const STEPS: readonly Step[] = [
  {
    title: 'Choose a package',
    text: 'Pick the coin pack that fits your growth plans. Bigger packs include bonus coins.',
    icon: LuPackage,
  },
  {
    title: 'Secure card payment',
    text: 'Pay by card through Stripe. Your card details go straight to Stripe and never touch our servers.',
    icon: LuLock,
  },
  {
    title: 'Instant delivery',
    text: 'Your coins are added to your balance as soon as the payment is confirmed.',
    icon: LuZap,
  },
];

function HowItWorks() {
  return (
    <Box as="section" aria-labelledby="how-it-works">
      <Heading id="how-it-works" as="h2" textStyle="xl" fontWeight="bold" mb="4">
        How it works
      </Heading>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '3', md: '4' }}>
        {STEPS.map((step, index) => (
          <Card.Root key={step.title} variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
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
                  {step.title}
                </Text>
              </HStack>
              <Text color="fg.muted" textStyle="sm" lineHeight="tall">
                {step.text}
              </Text>
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
    </Box>
  );
}

function HelpCard({ supportUrl }: { supportUrl: string }) {
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
                Need help with a purchase?
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                Questions about a payment or coins that have not arrived? Our team answers in the support
                community.
              </Text>
            </Stack>
          </HStack>
          <Button asChild colorPalette="brand" variant="outline" borderRadius="xl" flexShrink={0}>
            <a href={supportUrl} target="_blank" rel="noopener noreferrer">
              <FaDiscord />
              Join Support Server
            </a>
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

/** Payments are off (no Stripe keys): said before any click, in place of a pack that cannot be paid for. */
function PaymentsOff() {
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
              Card payments are not available right now
            </Heading>
            <Text color="fg.muted" textStyle="sm">
              Coin packs cannot be bought at the moment. You can still earn coins with rewards, social tasks
              and by joining servers.
            </Text>
          </Stack>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

export default function BuyCoinsPage() {
  useDocumentTitle('Buy Coins', 'Buy coin packs by card to grow your Discord server faster.');
  const { config } = usePublicConfig();
  const supportUrl = config?.supportUrl || DEFAULT_SUPPORT_URL;
  // The config is in the page's boot data: known at the first render, on the server too.
  const paymentsOff = config !== undefined && !config.stripePublishableKey;

  return (
    <Stack gap={{ base: '8', md: '12' }}>
      <Box>
        <PageHeader
          title="Buy Coins"
          subtitle="Top up your balance with a coin pack and reach more members faster."
        />
        {paymentsOff ? <PaymentsOff /> : null}
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap={{ base: '5', md: '6' }} pt="3">
          {PACKS.map((pack) => (
            <PackCard key={pack.id} pack={pack} unavailable={paymentsOff} />
          ))}
        </SimpleGrid>
        <HStack mt="5" gap="2" color="fg.muted" textStyle="sm" justify="center" textAlign="center">
          <Icon as={LuInfo} color="fg.subtle" flexShrink={0} />
          <Text>All purchases are final and non-refundable.</Text>
        </HStack>
      </Box>
      <HowItWorks />
      <HelpCard supportUrl={supportUrl} />
    </Stack>
  );
}

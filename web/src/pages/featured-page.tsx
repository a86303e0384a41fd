import { Box, Button, Card, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuArrowRight, LuCompass, LuCrown, LuStar, LuTrendingUp, LuUsers } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { PROMOTION, rewardText } from '@shared/campaign-kinds.ts';
import { useTranslation } from 'react-i18next';
import { formatAmount, formatWhole } from '../lib/format.ts';
import { useLocale } from '../lib/i18n.ts';

const PERKS = [
  { titleKey: 'featuredPage.perks.topTitle', textKey: 'featuredPage.perks.topText', icon: LuCrown },
  { titleKey: 'featuredPage.perks.slotsTitle', textKey: 'featuredPage.perks.slotsText', icon: LuUsers },
  {
    titleKey: 'featuredPage.perks.rewardTitle',
    textKey: 'featuredPage.perks.rewardText',
    icon: LuTrendingUp,
  },
] as const satisfies readonly { titleKey: string; textKey: string; icon: IconType }[];

export default function FeaturedPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  useDocumentTitle(t('nav.featured'));
  const reward = formatAmount(rewardText('featured'), locale);
  const values = {
    slots: formatWhole(PROMOTION.slots, locale),
    cost: formatWhole(PROMOTION.costCoins, locale),
    reward,
  };
  return (
    <Stack gap="8">
      <PageHeader title={t('featuredPage.title')} subtitle={t('featuredPage.subtitle')} />

      <LookingForServers reward={reward} />

      <Stack gap="4">
        <Heading as="h2" textStyle="lg" fontWeight="semibold">
          {t('featuredPage.featureOwn')}
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {PERKS.map((perk) => (
            <PerkCard key={perk.titleKey} perk={perk} values={values} />
          ))}
        </SimpleGrid>
        <Flex
          gap="4"
          direction={{ base: 'column', sm: 'row' }}
          align={{ sm: 'center' }}
          justify="space-between"
          bg="bg.subtle"
          borderWidth="1px"
          borderColor="border"
          borderRadius="xl"
          p={{ base: '4', md: '5' }}
        >
          <Text color="fg.muted" textStyle="sm">
            {t('featuredPage.cta')}
          </Text>
          <Flex gap="2" direction={{ base: 'column', sm: 'row' }} flexShrink={0}>
            <Button asChild variant="outline">
              <RouterLink to="/dashboard">{t('nav.dashboard')}</RouterLink>
            </Button>
            <Button asChild colorPalette="gold">
              <RouterLink to="/submit?tab=featured">
                {t('featuredPage.promote')} <LuArrowRight />
              </RouterLink>
            </Button>
          </Flex>
        </Flex>
      </Stack>
    </Stack>
  );
}

/** For members: featured campaigns pay more, on Discover. */
function LookingForServers({ reward }: { reward: string }) {
  const { t } = useTranslation();
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderColor="gold.emphasized"
      borderRadius="2xl"
      overflow="hidden"
    >
      <Box h="1" bgGradient="to-r" gradientFrom="gold.500" gradientTo="brand.500" />
      <Card.Body p={{ base: '5', md: '8' }}>
        <Flex gap={{ base: '5', md: '8' }} direction={{ base: 'column', md: 'row' }} align={{ md: 'center' }}>
          <Box
            colorPalette="gold"
            bg="colorPalette.subtle"
            color="colorPalette.fg"
            borderRadius="2xl"
            p="4"
            fontSize="3xl"
            alignSelf="flex-start"
          >
            <LuStar />
          </Box>
          <Stack gap="2" flex="1">
            <Heading as="h2" textStyle="xl" fontWeight="bold">
              {t('featuredPage.lookingTitle')}
            </Heading>
            <Text color="fg.muted">{t('featuredPage.lookingText', { reward })}</Text>
          </Stack>
          <Button asChild colorPalette="brand" size="lg" flexShrink={0}>
            <RouterLink to="/">
              <LuCompass /> {t('featuredPage.goDiscover')}
            </RouterLink>
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

function PerkCard({
  perk,
  values,
}: {
  perk: (typeof PERKS)[number];
  values: { slots: string; cost: string; reward: string };
}) {
  const { t } = useTranslation();
  return (
    <Card.Root variant="outline" bg="bg.panel" borderColor="border" borderRadius="xl">
      <Card.Body gap="3">
        <Box
          colorPalette="gold"
          bg="colorPalette.subtle"
          color="colorPalette.fg"
          borderRadius="lg"
          boxSize="10"
          display="grid"
          placeItems="center"
          fontSize="lg"
        >
          <Icon as={perk.icon} />
        </Box>
        <Heading as="h3" textStyle="md" fontWeight="semibold">
          {t(perk.titleKey, values)}
        </Heading>
        <Text color="fg.muted" textStyle="sm">
          {t(perk.textKey, values)}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

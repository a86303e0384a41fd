import { Box, Button, Card, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuArrowRight, LuCompass, LuCrown, LuStar, LuTrendingUp, LuUsers } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../components/page-header.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { PROMOTION, rewardText } from '@shared/campaign-kinds.ts';

const PERKS: readonly { title: string; text: string; icon: IconType }[] = [
  {
    title: 'Top of Discover',
    text: 'Featured servers sit in their own section above every other listing.',
    icon: LuCrown,
  },
  {
    title: `${PROMOTION.slots} member slots`,
    text: `One promotion costs ${PROMOTION.costCoins} coins and brings up to ${PROMOTION.slots} members to your server.`,
    icon: LuUsers,
  },
  {
    title: 'Bigger join reward',
    text: `Members earn ${rewardText('featured')} coins for joining a featured server, so they join faster.`,
    icon: LuTrendingUp,
  },
];

export default function FeaturedPage() {
  useDocumentTitle('Featured');
  return (
    <Stack gap="8">
      <PageHeader
        title="Featured Servers"
        subtitle="The spotlight of Discover: servers promoted by their owners, shown above every other listing."
      />

      <Card.Root
        variant="outline"
        bg="bg.panel"
        borderColor="gold.emphasized"
        borderRadius="2xl"
        overflow="hidden"
      >
        <Box h="1" bgGradient="to-r" gradientFrom="gold.500" gradientTo="brand.500" />
        <Card.Body p={{ base: '5', md: '8' }}>
          <Flex
            gap={{ base: '5', md: '8' }}
            direction={{ base: 'column', md: 'row' }}
            align={{ md: 'center' }}
          >
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
                Looking for featured servers?
              </Heading>
              <Text color="fg.muted">
                Featured servers are listed at the top of Discover, with the members they still need. Join one
                to earn {rewardText('featured')} coins.
              </Text>
            </Stack>
            <Button asChild colorPalette="brand" size="lg" flexShrink={0}>
              <RouterLink to="/">
                <LuCompass /> Go to Discover
              </RouterLink>
            </Button>
          </Flex>
        </Card.Body>
      </Card.Root>

      <Stack gap="4">
        <Heading as="h2" textStyle="lg" fontWeight="semibold">
          Feature your own server
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
          {PERKS.map((perk) => (
            <Card.Root
              key={perk.title}
              variant="outline"
              bg="bg.panel"
              borderColor="border"
              borderRadius="xl"
            >
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
                  {perk.title}
                </Heading>
                <Text color="fg.muted" textStyle="sm">
                  {perk.text}
                </Text>
              </Card.Body>
            </Card.Root>
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
            Submit a new server on the Featured tab, or promote one you already listed from your Dashboard.
          </Text>
          <Flex gap="2" direction={{ base: 'column', sm: 'row' }} flexShrink={0}>
            <Button asChild variant="outline">
              <RouterLink to="/dashboard">Dashboard</RouterLink>
            </Button>
            <Button asChild colorPalette="gold">
              <RouterLink to="/submit?tab=featured">
                Promote a Server <LuArrowRight />
              </RouterLink>
            </Button>
          </Flex>
        </Flex>
      </Stack>
    </Stack>
  );
}

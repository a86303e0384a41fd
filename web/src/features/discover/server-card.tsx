import { Badge, Box, Button, Card, Flex, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import type { ApiServer } from '@shared/api-types.ts';
import { DEFAULT_JOIN_REWARD } from '@shared/join-constants.ts';
import { LuCrown, LuStar, LuUserPlus, LuUsers } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { ServerAvatar } from '../../components/server-avatar.tsx';

export type ServerCardState = 'joinable' | 'own' | 'joined' | 'claiming';

export interface ServerCardProps {
  server: ApiServer;
  state: ServerCardState;
  joining: boolean;
  onJoin: (server: ApiServer) => void;
}

/** One Discover card: icon, name, badges, reward, members left (featured) and the join action. */
export function ServerCard({ server, state, joining, onJoin }: ServerCardProps) {
  const featured = server.isFeatured;
  const noBot = server.serverId === null;
  return (
    <Card.Root
      as="article"
      aria-label={server.name}
      variant="outline"
      bg="bg.panel"
      borderColor={featured ? 'gold.emphasized' : 'border'}
      borderRadius="xl"
      overflow="hidden"
      transition="transform 150ms, border-color 150ms"
      _hover={{ transform: 'translateY(-2px)', borderColor: featured ? 'gold.solid' : 'border.emphasized' }}
    >
      {featured ? <Box h="1" bgGradient="to-r" gradientFrom="gold.500" gradientTo="brand.500" /> : null}
      <Card.Body p={{ base: '4', md: '5' }} gap="4">
        <Flex gap="3" align="center" minW="0">
          <ServerAvatar name={server.name} iconUrl={server.iconUrl} size="lg" />
          <Stack gap="1" minW="0" flex="1">
            <Heading as="h3" textStyle="md" fontWeight="semibold" truncate title={server.name}>
              {server.name}
            </Heading>
            <HStack gap="1.5" wrap="wrap" minH="5">
              {featured ? (
                <Badge colorPalette="gold" variant="subtle" size="sm">
                  <LuStar />
                  Featured
                </Badge>
              ) : null}
              {noBot ? (
                <Badge colorPalette="purple" variant="subtle" size="sm">
                  No Bot
                </Badge>
              ) : null}
            </HStack>
          </Stack>
        </Flex>

        <Flex justify="space-between" align="center" gap="3" wrap="wrap">
          <CoinAmount value={server.coinReward || DEFAULT_JOIN_REWARD} showPlus suffix="coins" />
          {featured ? (
            <HStack gap="1.5" color="fg.muted" textStyle="sm">
              <LuUsers aria-hidden="true" />
              <Text>
                {server.membersRemaining} {server.membersRemaining === 1 ? 'member' : 'members'} left
              </Text>
            </HStack>
          ) : null}
        </Flex>

        <Box mt="auto">
          {state === 'own' ? (
            <Flex
              h="10"
              align="center"
              justify="center"
              gap="2"
              borderRadius="lg"
              borderWidth="1px"
              borderColor="gold.muted"
              bg="gold.subtle"
              color="gold.fg"
              fontWeight="semibold"
              textStyle="sm"
            >
              <LuCrown aria-hidden="true" />
              Your Server
            </Flex>
          ) : state === 'claiming' ? (
            <Button
              variant="subtle"
              colorPalette="brand"
              disabled
              width="full"
              borderRadius="lg"
              loading
              loadingText="Claiming..."
            >
              Claiming...
            </Button>
          ) : state === 'joined' ? (
            <Button variant="subtle" disabled width="full" borderRadius="lg">
              Joined
            </Button>
          ) : (
            <Button
              colorPalette="brand"
              width="full"
              borderRadius="lg"
              loading={joining}
              loadingText="Joining..."
              onClick={() => onJoin(server)}
              aria-label={`Join ${server.name}`}
            >
              <LuUserPlus />
              Join
            </Button>
          )}
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

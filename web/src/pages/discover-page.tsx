import {
  Alert,
  Box,
  Button,
  Field,
  Flex,
  Heading,
  HStack,
  Input,
  InputGroup,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ApiServer } from '@shared/api-types.ts';
import { useMemo, useState, type ReactNode } from 'react';
import { LuCompass, LuPlus, LuSearch, LuSparkles, LuStar } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toaster.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { openInviteTab } from '../features/discover/invite-tab.ts';
import { ServerCard, type ServerCardState } from '../features/discover/server-card.tsx';
import { useFeaturedServers } from '../features/discover/use-featured-servers.ts';
import { useJoinServer } from '../features/discover/use-join-server.ts';
import { useNobotClaims } from '../features/discover/use-nobot-claims.ts';
import { useServers } from '../features/discover/use-servers.ts';

const GRID_COLUMNS = { base: 1, sm: 2, lg: 3 } as const;

function matches(server: ApiServer, query: string): boolean {
  return server.membersRemaining > 0 && server.name.toLowerCase().includes(query);
}

function SectionHeading({
  id,
  icon,
  title,
  count,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  count: number;
}) {
  return (
    <HStack gap="2.5" mb="4">
      <Box color="brand.fg" fontSize="lg" aria-hidden="true">
        {icon}
      </Box>
      <Heading as="h2" id={id} textStyle={{ base: 'lg', md: 'xl' }} fontWeight="bold">
        {title}
      </Heading>
      <Text color="fg.subtle" textStyle="sm">
        ({count})
      </Text>
    </HStack>
  );
}

export default function DiscoverPage() {
  useDocumentTitle('Discover');
  const { user } = useAuth();
  const userId = user?.id ?? '';
  const [search, setSearch] = useState('');
  // No-bot servers joined in this visit: their card waits as "Claiming..." until the claim refetches the lists.
  const [claiming, setClaiming] = useState<ReadonlySet<string>>(() => new Set());
  const servers = useServers();
  const featured = useFeaturedServers();
  const join = useJoinServer();
  const { addPendingClaim } = useNobotClaims(userId);

  const query = search.trim().toLowerCase();
  const joinableIds = useMemo(() => new Set((servers.data ?? []).map((s) => s.id)), [servers.data]);
  const featuredList = useMemo(
    () => (featured.data ?? []).filter((s) => matches(s, query)),
    [featured.data, query],
  );
  const regularList = useMemo(
    () => (servers.data ?? []).filter((s) => !s.isFeatured && s.ownerId !== userId && matches(s, query)),
    [servers.data, query, userId],
  );

  const cardState = (server: ApiServer): ServerCardState => {
    if (server.ownerId === userId) return 'own';
    if (claiming.has(server.id)) return 'claiming';
    // The featured list also carries campaigns this member already joined; Discover's list does not.
    if (servers.data && !joinableIds.has(server.id)) return 'joined';
    return 'joinable';
  };

  const handleJoin = (server: ApiServer) => {
    const tab = openInviteTab();
    const noBot = server.serverId === null;
    join.mutate(server, {
      onSuccess: (result) => {
        tab.go(result.inviteLink);
        if (noBot) {
          addPendingClaim(result.serverId);
          setClaiming((previous) => new Set(previous).add(server.id));
          toast({
            title: 'Stay for a moment',
            description: `Your +${result.potentialReward} coins arrive in about 10 seconds.`,
          });
        } else {
          toast({
            title: 'Almost there!',
            description: 'Join the server in Discord — your coins arrive once our bot sees you join',
          });
        }
      },
      onError: (err) => {
        tab.close();
        if (noBot) {
          toast({
            title: 'Join Failed',
            description: 'Failed to join server. Please try again.',
            variant: 'destructive',
          });
        } else {
          toast({
            title: 'Error',
            description: errorMessage(err, 'Failed to join server'),
            variant: 'destructive',
          });
        }
      },
    });
  };

  const loading = servers.isLoading || featured.isLoading;
  const failed = servers.isError || featured.isError;
  const nothing = featuredList.length === 0 && regularList.length === 0;

  return (
    <>
      <PageHeader
        title="Discover Servers"
        subtitle="Join Discord servers, earn coins for every new community you join."
        actions={
          <Field.Root width={{ base: 'full', sm: '72' }}>
            <Field.Label srOnly>Search servers</Field.Label>
            <InputGroup startElement={<LuSearch />} width="full">
              <Input
                type="search"
                placeholder="Search servers..."
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                bg="bg.panel"
                borderRadius="lg"
              />
            </InputGroup>
          </Field.Root>
        }
      />

      {loading ? (
        <Flex justify="center" align="center" gap="3" py="16" color="fg.muted" role="status">
          <Spinner size="sm" color="brand.fg" />
          <Text>Loading servers...</Text>
        </Flex>
      ) : failed ? (
        <EmptyState
          title="Could not load servers"
          description={errorMessage(
            servers.error ?? featured.error,
            'Please check your connection and try again.',
          )}
          action={
            <Button
              variant="outline"
              onClick={() => void Promise.all([servers.refetch(), featured.refetch()])}
            >
              Try again
            </Button>
          }
        />
      ) : nothing && query !== '' ? (
        <EmptyState
          icon={<LuCompass />}
          title={`No servers match “${search.trim()}”`}
          description="Check the spelling or try a shorter name."
          action={
            <Button size="sm" variant="outline" colorPalette="gray" onClick={() => setSearch('')}>
              Clear search
            </Button>
          }
        />
      ) : nothing ? (
        <EmptyState
          icon={<LuCompass />}
          title="No servers found. Be the first to submit one!"
          action={
            <Button asChild colorPalette="brand" size="sm">
              <RouterLink to="/submit">
                <LuPlus />
                Submit a server
              </RouterLink>
            </Button>
          }
        />
      ) : (
        <Stack gap={{ base: '10', md: '12' }}>
          {featuredList.length > 0 ? (
            <Box as="section" aria-labelledby="featured-servers">
              <SectionHeading
                id="featured-servers"
                icon={<LuStar />}
                title="Featured Servers"
                count={featuredList.length}
              />
              <Alert.Root status="warning" variant="subtle" borderRadius="lg" mb="5" colorPalette="gold">
                <Alert.Indicator>
                  <LuSparkles />
                </Alert.Indicator>
                <Alert.Content>
                  <Alert.Title>Featured servers pay more</Alert.Title>
                  <Alert.Description>
                    Earn +0.75 coins per join. Stay at least 5 days in a featured server (2 days for regular
                    ones) or a 2.00-coin early-leave penalty applies.
                  </Alert.Description>
                </Alert.Content>
              </Alert.Root>
              <SimpleGrid columns={GRID_COLUMNS} gap={{ base: '3', md: '4' }}>
                {featuredList.map((server) => (
                  <ServerCard
                    key={server.id}
                    server={server}
                    state={cardState(server)}
                    joining={join.isPending && join.variables?.id === server.id}
                    onJoin={handleJoin}
                  />
                ))}
              </SimpleGrid>
            </Box>
          ) : null}

          <Box as="section" aria-labelledby="more-servers">
            <SectionHeading
              id="more-servers"
              icon={<LuCompass />}
              title="More Servers"
              count={regularList.length}
            />
            {regularList.length === 0 ? (
              <EmptyState title="No regular servers available." />
            ) : (
              <SimpleGrid columns={GRID_COLUMNS} gap={{ base: '3', md: '4' }}>
                {regularList.map((server) => (
                  <ServerCard
                    key={server.id}
                    server={server}
                    state={cardState(server)}
                    joining={join.isPending && join.variables?.id === server.id}
                    onJoin={handleJoin}
                  />
                ))}
              </SimpleGrid>
            )}
          </Box>
        </Stack>
      )}
    </>
  );
}

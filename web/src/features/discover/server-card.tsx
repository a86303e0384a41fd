import {
  Badge,
  Box,
  Button,
  Card,
  Flex,
  HStack,
  Heading,
  Image,
  Skeleton,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import type { ReactNode } from 'react';
import { DEFAULT_JOIN_REWARD, waitText } from '@shared/join-constants.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import {
  LuCircleCheck,
  LuClock,
  LuCoins,
  LuCrown,
  LuExternalLink,
  LuStar,
  LuUserPlus,
  LuUsers,
} from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { noteInviteOpened } from '../joins/check-on-return.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';
import { formatCount } from '@shared/i18n/index.ts';

/**
 * - joinable: Join; paced: the member's join pace is used up ("Next join in 12 min", decision 038);
 * - own: "Your Server"; joined: joined here; member: already in that Discord server (no join row);
 * - claiming: a no-bot reward on its 10 s timer; accept: a no-bot join whose claim found the member not
 *   in the server yet (or a reload found it unpaid): "Accept the invite, then Claim";
 * - pending: a bot server joined here and not verified yet: the invite again, and what happens next.
 */
export type ServerCardState =
  'joinable' | 'paced' | 'own' | 'joined' | 'member' | 'claiming' | 'accept' | 'pending';

export interface ServerCardProps {
  server: ApiDiscoverServer;
  state: ServerCardState;
  joining: boolean;
  onJoin: (server: ApiDiscoverServer) => void;
  /** Milliseconds until the next join (state 'paced'). */
  nextJoinMs?: number;
  /** Claim now (state 'accept'). */
  onClaim?: (server: ApiDiscoverServer) => void;
  claiming?: boolean;
}

/** A full-width status box in place of the card's button (Your Server, Already a member). */
function StatusBox({ palette, children }: { palette: 'gold' | 'green'; children: ReactNode }) {
  return (
    <Flex
      h="10"
      align="center"
      justify="center"
      gap="2"
      borderRadius="lg"
      borderWidth="1px"
      borderColor={`${palette}.muted`}
      bg={`${palette}.subtle`}
      color={`${palette}.fg`}
      fontWeight="semibold"
      textStyle="sm"
    >
      {children}
    </Flex>
  );
}

/**
 * "1,234 members · 56 online" from the invite; the line keeps its height while unknown. Browser only:
 * the counts change with every invite-stats refresh, and left out of the server's markup they do not
 * change the page's render, so Discover's cached render serves until its list changes (decision 047,
 * session 14). Hydration renders the line empty as the server did, then the counts.
 */
function GuildCounts({ server }: { server: ApiDiscoverServer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const hydrated = useHydrated();
  const memberCount = hydrated ? server.memberCount : null;
  const onlineCount = hydrated ? server.onlineCount : null;
  return (
    <HStack gap="3" minH="5" color="fg.muted" textStyle="xs" wrap="wrap">
      {memberCount !== null ? (
        <Text>
          <Text as="span" color="fg" fontWeight="semibold">
            {formatCount(memberCount, locale)}
          </Text>{' '}
          {t('discover.card.members', { count: memberCount })}
        </Text>
      ) : null}
      {onlineCount !== null ? (
        <HStack gap="1.5">
          <Box w="2" h="2" borderRadius="full" bg="green.solid" aria-hidden="true" />
          <Text>
            <Text as="span" color="fg" fontWeight="semibold">
              {formatCount(onlineCount, locale)}
            </Text>{' '}
            {t('discover.card.online')}
          </Text>
        </HStack>
      ) : null}
    </HStack>
  );
}

/**
 * A featured card's "12 members left". Browser only, like the counts: every verified join changes it, and
 * left out of the server's markup it does not change the page's render, so members joining a featured
 * campaign do not force a render of every member's Discover (decision 047, session 15). The icon holds
 * the place; the number follows hydration in the same frame as the counts.
 */
function SlotsLeft({ server }: { server: ApiDiscoverServer }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  return (
    <HStack gap="1.5" color="fg.muted" textStyle="sm">
      <LuUsers aria-hidden="true" />
      {hydrated ? <Text>{t('discover.card.left', { count: server.membersRemaining })}</Text> : null}
    </HStack>
  );
}

/** One Discover card: banner, icon, name, counts, description, badges, reward and the join action. */
export function ServerCard({
  server,
  state,
  joining,
  onJoin,
  nextJoinMs = 0,
  onClaim,
  claiming = false,
}: ServerCardProps) {
  const { t } = useTranslation();
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
      _motionReduce={{ transition: 'none', _hover: { transform: 'none' } }}
    >
      {featured ? <Box h="1" bgGradient="to-r" gradientFrom="gold.500" gradientTo="brand.500" /> : null}
      {server.bannerUrl ? (
        // Fixed aspect ratio: the card has its final height before the image arrives.
        <Box aspectRatio={16 / 5} bg="bg.muted" overflow="hidden">
          <Image src={server.bannerUrl} alt="" w="full" h="full" objectFit="cover" loading="lazy" />
        </Box>
      ) : null}
      <Card.Body p={{ base: '4', md: '5' }} gap="3">
        <Flex gap="3" align="center" minW="0">
          <ServerAvatar name={server.name} iconUrl={server.iconUrl} size="lg" />
          <Stack gap="1" minW="0" flex="1">
            <Heading as="h3" textStyle="md" fontWeight="semibold" truncate title={server.name}>
              {server.name}
            </Heading>
            <GuildCounts server={server} />
          </Stack>
        </Flex>

        {/* Two lines reserved whether or not Discord has a description: cards line up, nothing shifts. */}
        <Text textStyle="sm" color={server.description ? 'fg.muted' : 'fg.subtle'} lineClamp={2} minH="2lh">
          {server.description ?? (noBot ? t('discover.card.noBotBlurb') : t('discover.card.botBlurb'))}
        </Text>

        <KindAndReward server={server} />

        <Box mt="auto">
          <CardAction
            server={server}
            state={state}
            joining={joining}
            onJoin={onJoin}
            nextJoinMs={nextJoinMs}
            onClaim={onClaim}
            claiming={claiming}
          />
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

/** The campaign's badges (featured, no-bot), then its reward and, when featured, the slots left. */
function KindAndReward({ server }: { server: ApiDiscoverServer }) {
  const { t } = useTranslation();
  const featured = server.isFeatured;
  return (
    <>
      <HStack gap="1.5" wrap="wrap" minH="5">
        {featured ? (
          <Badge colorPalette="gold" variant="subtle" size="sm">
            <LuStar />
            {t('servers.featured')}
          </Badge>
        ) : null}
        {server.serverId === null ? (
          <Badge colorPalette="purple" variant="subtle" size="sm">
            {t('servers.noBot')}
          </Badge>
        ) : null}
      </HStack>

      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <CoinAmount
          value={server.coinReward || DEFAULT_JOIN_REWARD}
          showPlus
          suffix={t('common.coinsWord')}
        />
        {featured ? <SlotsLeft server={server} /> : null}
      </Flex>
    </>
  );
}

/** The card's action for its state: Join, a status, the invite again, or Claim. */
function CardAction(props: ServerCardProps) {
  const { server, state, joining, onJoin, nextJoinMs = 0 } = props;
  const { t } = useTranslation();
  switch (state) {
    case 'own':
      return (
        <StatusBox palette="gold">
          <LuCrown aria-hidden="true" />
          {t('discover.card.yours')}
        </StatusBox>
      );
    case 'member':
      return (
        <StatusBox palette="green">
          <LuCircleCheck aria-hidden="true" />
          {t('discover.card.member')}
        </StatusBox>
      );
    case 'accept':
      return <AcceptThenClaim {...props} />;
    case 'pending':
      return <InviteAgain server={server} />;
    case 'paced':
      return (
        <Button
          variant="subtle"
          disabled
          width="full"
          borderRadius="lg"
          aria-label={`${t('discover.card.joinNamed', { name: server.name })}: ${t('discover.nextJoin', { wait: waitText(nextJoinMs) })}`}
        >
          <LuClock />
          {t('discover.nextJoin', { wait: waitText(nextJoinMs) })}
        </Button>
      );
    case 'claiming':
      return (
        <Button
          variant="subtle"
          colorPalette="brand"
          disabled
          width="full"
          borderRadius="lg"
          loading
          loadingText={t('rewards.claiming')}
        >
          {t('rewards.claiming')}
        </Button>
      );
    case 'joined':
      return (
        <Button variant="subtle" disabled width="full" borderRadius="lg">
          {t('joins.joined')}
        </Button>
      );
    default:
      return (
        <Button
          colorPalette="brand"
          width="full"
          borderRadius="lg"
          loading={joining}
          loadingText={t('discover.card.joining')}
          onClick={() => onJoin(server)}
          aria-label={t('discover.card.joinNamed', { name: server.name })}
        >
          <LuUserPlus />
          {t('discover.card.join')}
        </Button>
      );
  }
}

/** A no-bot join the member has not accepted yet: the invite, then Claim. */
function AcceptThenClaim({ server, onClaim, claiming = false }: ServerCardProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="2">
      <Text textStyle="sm" color="fg.muted" textAlign="center">
        {t('discover.card.acceptThenClaim')}
      </Text>
      <HStack gap="2">
        <Button asChild variant="outline" flex="1" borderRadius="lg">
          <a href={server.inviteLink} target="_blank" rel="noopener noreferrer">
            <LuExternalLink />
            {t('discover.card.invite')}
          </a>
        </Button>
        <Button
          colorPalette="brand"
          flex="1"
          borderRadius="lg"
          loading={claiming}
          loadingText={t('discover.card.claiming')}
          onClick={() => onClaim?.(server)}
          aria-label={t('discover.card.claimNamed', { name: server.name })}
        >
          <LuCoins />
          {t('discover.card.claim')}
        </Button>
      </HStack>
    </Stack>
  );
}

/** A bot server joined here and not verified yet: the invite again, and what happens next. */
function InviteAgain({ server }: { server: ApiDiscoverServer }) {
  const { t } = useTranslation();
  return (
    <Stack gap="2">
      <Text textStyle="sm" color="fg.muted" textAlign="center">
        {t('discover.card.joinedHint')}
      </Text>
      <Button asChild variant="outline" width="full" borderRadius="lg">
        <a
          href={server.inviteLink}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('discover.card.openInviteNamed', { name: server.name })}
          // Coming back from it asks the server to look the join up (intent-free verification).
          onClick={() => noteInviteOpened()}
        >
          <LuExternalLink />
          {t('discover.card.openInvite')}
        </a>
      </Button>
    </Stack>
  );
}

/** Placeholder with a card's shape and height, so the page does not jump when cards arrive. */
export function ServerCardSkeleton() {
  return (
    <Card.Root variant="outline" bg="bg.panel" borderRadius="xl" aria-hidden="true">
      <Card.Body p={{ base: '4', md: '5' }} gap="3">
        <Flex gap="3" align="center">
          <Skeleton boxSize="12" borderRadius="full" />
          <Stack gap="2" flex="1">
            <Skeleton h="5" w="70%" />
            <Skeleton h="4" w="45%" />
          </Stack>
        </Flex>
        <Skeleton h="2lh" textStyle="sm" />
        <Skeleton h="5" w="20%" />
        <Skeleton h="6" w="35%" />
        <Skeleton h="10" borderRadius="lg" />
      </Card.Body>
    </Card.Root>
  );
}

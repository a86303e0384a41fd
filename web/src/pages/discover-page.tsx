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
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { LuClock, LuCompass, LuPlus, LuSearch, LuSparkles, LuStar } from 'react-icons/lu';
import { Link as RouterLink, useNavigate } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { ApiError, errorMessage, errorStatus } from '../lib/api.ts';
import { toast } from '../lib/toaster.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { openInviteTab } from '../features/discover/invite-tab.ts';
import { ServerCard, ServerCardSkeleton, type ServerCardState } from '../features/discover/server-card.tsx';
import { useFeaturedServers } from '../features/discover/use-featured-servers.ts';
import { useJoinServer } from '../features/discover/use-join-server.ts';
import { useServers } from '../features/discover/use-servers.ts';
import { useNextJoinWait } from '../features/discover/use-join-pace.ts';
import { useClaimNoBot } from '../features/discover/use-claim-nobot.ts';
import { MY_JOINS_PATH } from '../features/discover/go-to-my-joins.ts';
import { useMyJoins } from '../features/joins/use-my-joins.ts';
import { isNotInGuildYetMessage, NOBOT_CLAIM_DELAY_MS, waitText } from '@shared/join-constants.ts';
import { minStayDays, penaltyText, rewardText } from '@shared/campaign-kinds.ts';
import { formatAmount } from '../lib/format.ts';
import { delayedClaims, usePendingClaims } from '../claims.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../lib/i18n.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { SERVER_RENDERED_CARDS } from '../features/discover/server-rendered-cards.ts';

const GRID_COLUMNS = { base: 1, sm: 2, lg: 3 } as const;

type ApiServer = ApiDiscoverServer;

/** The search sent to the server once typing pauses (one request per pause, not per key). */
function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Calls `onVisible` when the element comes within a screen of the viewport (infinite scroll). */
function useNearViewport(onVisible: () => void, enabled: boolean) {
  const ref = useRef<HTMLDivElement | null>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const node = ref.current;
    if (!node || !enabled || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: '0px 0px 100% 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled]);
  return ref;
}

function SkeletonGrid({ cards }: { cards: number }) {
  return (
    <SimpleGrid columns={GRID_COLUMNS} gap={{ base: '3', md: '4' }}>
      {Array.from({ length: cards }, (_, i) => (
        <ServerCardSkeleton key={i} />
      ))}
    </SimpleGrid>
  );
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
  count?: number;
}) {
  return (
    <HStack gap="2.5" mb="4">
      <Box color="brand.fg" fontSize="lg" aria-hidden="true">
        {icon}
      </Box>
      <Heading as="h2" id={id} textStyle={{ base: 'lg', md: 'xl' }} fontWeight="bold">
        {title}
      </Heading>
      {count !== undefined ? (
        <Text color="fg.subtle" textStyle="sm">
          ({count})
        </Text>
      ) : null}
    </HStack>
  );
}

/**
 * Discover's two lists for a search: the featured section (the featured list) and "More Servers" (the
 * regular campaigns of Discover's pages, loaded page by page as the member scrolls).
 */
function useDiscoverLists(query: string, joinedNow: ReadonlySet<string>) {
  const servers = useServers(query);
  const featured = useFeaturedServers(query);
  // Discover's pages list featured campaigns first, then regular ones (the server searches and
  // leaves out joined and own regular campaigns). The Featured section shows the featured list.
  const loaded = useMemo(() => (servers.data?.pages ?? []).flatMap((p) => p.servers), [servers.data]);
  const joinableIds = useMemo(() => new Set(loaded.map((s) => s.id)), [loaded]);
  // Whether every featured campaign this member can join is loaded (the pages moved past them).
  const featuredComplete = !servers.hasNextPage || loaded.some((s) => !s.isFeatured);
  const featuredList = useMemo(
    () => (featured.data ?? []).filter((s) => s.membersRemaining > 0),
    [featured.data],
  );
  const regularList = useMemo(
    () => loaded.filter((s) => !s.isFeatured && !s.isMine && !joinedNow.has(s.id)),
    [loaded, joinedNow],
  );
  const loadMore = () => {
    if (servers.hasNextPage && !servers.isFetchingNextPage && !servers.isError) void servers.fetchNextPage();
  };
  const sentinel = useNearViewport(loadMore, Boolean(servers.hasNextPage));
  return { servers, featured, joinableIds, featuredComplete, featuredList, regularList, loadMore, sentinel };
}

/** This visit's joins and claims beside the member's joins (My Joins): what each card offers. */
function useVisitJoins() {
  // Bot servers joined in this visit leave the list; the server keeps listing a join that is still
  // pending, so after a reload they come back offering the invite again (My Joins shows why).
  const [joinedNow, setJoinedNow] = useState<ReadonlySet<string>>(() => new Set());
  // No-bot servers with a pending claim (from any visit) or joined in this visit: their card waits as
  // "Claiming..." until the claim refetches the lists (which then leave the server out).
  const pendingNobot = usePendingClaims('nobot');
  const [joinedNobot, setJoinedNobot] = useState<ReadonlySet<string>>(() => new Set());
  const claiming = useMemo(
    () => new Set([...joinedNobot, ...pendingNobot.filter((c) => !c.waiting).map((c) => c.id)]),
    [joinedNobot, pendingNobot],
  );
  // Claims the server refused as "not in the server yet": retried quietly, and the card offers Claim.
  const waitingOnInvite = useMemo(
    () => new Set(pendingNobot.filter((c) => c.waiting).map((c) => c.id)),
    [pendingNobot],
  );
  // The member's joins (My Joins): a reload still knows an unpaid no-bot join (Claim, not Join again),
  // and a featured card this member cannot join is "Joined" or "Already a member".
  const myJoins = useMyJoins();
  const joinsByCampaign = useMemo(
    () => new Map((myJoins.data ?? []).map((j) => [j.campaignId, j])),
    [myJoins.data],
  );
  return { joinedNow, setJoinedNow, setJoinedNobot, claiming, waitingOnInvite, joinsByCampaign };
}

type VisitJoins = ReturnType<typeof useVisitJoins>;

/** Where Discover's lists stand: loaded at all, past the featured campaigns, which campaigns they hold. */
interface ListsState {
  loaded: boolean;
  featuredComplete: boolean;
  joinableIds: ReadonlySet<string>;
}

function cardStateOf(
  server: ApiServer,
  visit: VisitJoins,
  lists: ListsState,
  nextJoinMs: number,
): ServerCardState {
  const { waitingOnInvite, claiming, joinsByCampaign, joinedNow } = visit;
  if (server.isMine) return 'own';
  if (waitingOnInvite.has(server.id)) return 'accept';
  if (claiming.has(server.id)) return 'claiming';
  const join = joinsByCampaign.get(server.id);
  // A no-bot join not paid yet (after a reload, or once the quiet retries stopped): Claim, not Join.
  if (join?.noBot && join.state === 'waiting') return 'accept';
  // A bot server joined here, not verified yet: the invite again (Join would only restart the wait).
  if (join && !join.noBot && join.state === 'waiting' && !joinedNow.has(server.id)) return 'pending';
  // The featured list also carries campaigns this member already joined; Discover's pages do not.
  if (joinedNow.has(server.id)) return 'joined';
  if (join && join.state !== 'waiting' && join.state !== 'expired') return 'joined';
  // Discover's pages leave out servers the member is already in (their Discord guild list).
  if (lists.loaded && lists.featuredComplete && !lists.joinableIds.has(server.id))
    return join ? 'joined' : 'member';
  if (nextJoinMs > 0) return 'paced';
  return 'joinable';
}

/** Join and Claim on a card, with their toasts. */
function useDiscoverActions(userId: string, visit: VisitJoins) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const myJoinsAction = { label: t('nav.joins'), onClick: () => void navigate(MY_JOINS_PATH) };
  const { claimNow, handleClaim } = useClaimAction(myJoinsAction);
  const { join, handleJoin } = useJoinAction(userId, visit, myJoinsAction);
  return { join, claimNow, handleClaim, handleJoin };
}

type ToastAction = { label: string; onClick: () => void };

/** Claim on a no-bot card: the reward, "not in the server yet", or why it failed. */
function useClaimAction(myJoinsAction: ToastAction) {
  const { t } = useTranslation();
  const locale = useLocale();
  const claimNow = useClaimNoBot();
  const handleClaim = (server: ApiServer) => {
    claimNow.mutate(server.id, {
      onSuccess: (result) => {
        delayedClaims.remove('nobot', server.id);
        toast({
          title: t('joins.earned'),
          description: t('rewards.added', { coins: formatAmount(result.earned, locale) }),
          action: myJoinsAction,
        });
      },
      onError: (err) => {
        const message = err instanceof ApiError ? err.serverMessage : null;
        if (isNotInGuildYetMessage(message)) {
          toast({ title: t('discover.notInYet'), description: message ?? undefined, action: myJoinsAction });
          return;
        }
        if (errorStatus(err) === 409) delayedClaims.remove('nobot', server.id);
        toast({
          title: t('joins.claimFailed'),
          description: errorMessage(err, t('discover.claimFailedText')),
          variant: 'destructive',
          action: myJoinsAction,
        });
      },
    });
  };
  return { claimNow, handleClaim };
}

/** Join on a card: the invite opens in a new tab, and a toast says what comes next. */
function useJoinAction(userId: string, visit: VisitJoins, myJoinsAction: ToastAction) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { setJoinedNow, setJoinedNobot } = visit;
  const join = useJoinServer();
  const handleJoin = (server: ApiServer) => {
    const tab = openInviteTab();
    const noBot = server.serverId === null;
    join.mutate(server, {
      onSuccess: (result) => {
        tab.go(result.inviteLink);
        if (noBot) {
          delayedClaims.add(userId, 'nobot', result.serverId);
          setJoinedNobot((previous) => new Set(previous).add(server.id));
          toast({
            title: t('discover.stay'),
            description: t('discover.stayText', {
              coins: formatAmount(result.potentialReward, locale),
              seconds: NOBOT_CLAIM_DELAY_MS / 1000,
            }),
            action: myJoinsAction,
          });
        } else {
          setJoinedNow((previous) => new Set(previous).add(server.id));
          toast({
            title: t('discover.almost'),
            description: t('discover.almostText'),
            action: myJoinsAction,
          });
        }
      },
      onError: (err) => {
        tab.close();
        // The join pace (429) and Discord's server cap say what to do: their own words, also for no-bot.
        const status = errorStatus(err);
        if (noBot && status !== 429 && status !== 409) {
          toast({
            title: t('joins.joinFailed'),
            description: t('discover.joinFailedText'),
            variant: 'destructive',
          });
        } else {
          toast({
            title: t('common.error'),
            description: errorMessage(err, t('discover.joinFailedShort')),
            variant: 'destructive',
          });
        }
      },
    });
  };
  return { join, handleJoin };
}

/** What every card of the page needs beside its server: its state, and Join and Claim. */
interface CardActions {
  cardState: (server: ApiServer) => ServerCardState;
  joiningId: string | undefined;
  claimingId: string | undefined;
  onJoin: (server: ApiServer) => void;
  onClaim: (server: ApiServer) => void;
  nextJoinMs: number;
}

/** A card's height in px at each breakpoint (server-card.tsx: its padding grows at md), without a banner. */
const CARD_HEIGHT = { narrow: 248, wide: 256 } as const;
/** A featured card's gold bar and its spacing. */
const FEATURED_EXTRA = 6;

/**
 * Until hydrated, the room of the cards the server leaves out (below the first ones): one empty element
 * as tall as their rows at each breakpoint, so the page does not jump down when they arrive (CLS, issue
 * 14). An estimate for cards without a banner; a banner makes its row taller.
 */
function LaterCardsRoom({ list }: { list: ApiServer[] }) {
  if (list.length <= SERVER_RENDERED_CARDS) return null;
  const extra = list[SERVER_RENDERED_CARDS]!.isFeatured ? FEATURED_EXTRA : 0;
  // Each row after the first cards' rows adds a card's height and the grid's gap (12 px, 16 from md).
  const room = (columns: number, card: number, gap: number) => {
    const rows = Math.ceil(list.length / columns) - Math.ceil(SERVER_RENDERED_CARDS / columns);
    return `${rows * (card + extra + gap) - gap}px`;
  };
  return (
    <Box
      gridColumn="1 / -1"
      aria-hidden="true"
      h={{
        base: room(GRID_COLUMNS.base, CARD_HEIGHT.narrow, 12),
        sm: room(GRID_COLUMNS.sm, CARD_HEIGHT.narrow, 12),
        md: room(GRID_COLUMNS.sm, CARD_HEIGHT.wide, 16),
        lg: room(GRID_COLUMNS.lg, CARD_HEIGHT.wide, 16),
      }}
    />
  );
}

function ServerGrid({ list, actions }: { list: ApiServer[]; actions: CardActions }) {
  // The server renders (and hydration matches) the first cards only; the rest follow once hydrated.
  const hydrated = useHydrated();
  const shown = hydrated ? list : list.slice(0, SERVER_RENDERED_CARDS);
  return (
    <SimpleGrid columns={GRID_COLUMNS} gap={{ base: '3', md: '4' }}>
      {shown.map((server) => (
        <ServerCard
          key={server.id}
          server={server}
          state={actions.cardState(server)}
          joining={actions.joiningId === server.id}
          onJoin={actions.onJoin}
          nextJoinMs={actions.nextJoinMs}
          onClaim={actions.onClaim}
          claiming={actions.claimingId === server.id}
        />
      ))}
      {hydrated ? null : <LaterCardsRoom list={list} />}
    </SimpleGrid>
  );
}

export default function DiscoverPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.discover'));
  const { user } = useAuth();
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), 250);
  const visit = useVisitJoins();
  // The join pace (decision 038): "Next join in 12 min" on the cards instead of Join.
  const { waitMs: nextJoinMs, pace } = useNextJoinWait();
  const { servers, featured, joinableIds, featuredComplete, featuredList, regularList, loadMore, sentinel } =
    useDiscoverLists(query, visit.joinedNow);
  const { join, claimNow, handleClaim, handleJoin } = useDiscoverActions(user?.id ?? '', visit);
  const lists = { loaded: Boolean(servers.data), featuredComplete, joinableIds };
  const actions: CardActions = {
    cardState: (server) => cardStateOf(server, visit, lists, nextJoinMs),
    joiningId: join.isPending ? join.variables?.id : undefined,
    claimingId: claimNow.isPending ? claimNow.variables : undefined,
    onJoin: handleJoin,
    onClaim: handleClaim,
    nextJoinMs,
  };

  const loading = servers.isLoading || featured.isLoading;
  const failed = (servers.isError && !servers.data) || featured.isError;
  const nothing = featuredList.length === 0 && regularList.length === 0 && !servers.hasNextPage;

  return (
    <>
      <PageHeader
        title={t('discover.title')}
        subtitle={t('discover.subtitle')}
        actions={<SearchField value={search} onChange={setSearch} />}
      />

      {loading ? (
        // Skeleton cards hold the space the cards will take (no layout shift on a phone).
        <Stack gap="4">
          <Flex align="center" gap="3" color="fg.muted" role="status" minH="7">
            <Spinner size="sm" color="brand.fg" />
            <Text>{t('discover.loading')}</Text>
          </Flex>
          <SkeletonGrid cards={6} />
        </Stack>
      ) : failed ? (
        <EmptyState
          title={t('discover.loadFailed')}
          description={errorMessage(servers.error ?? featured.error, t('discover.checkConnection'))}
          action={
            <Button
              variant="outline"
              onClick={() => void Promise.all([servers.refetch(), featured.refetch()])}
            >
              {t('common.tryAgain')}
            </Button>
          }
        />
      ) : nothing ? (
        <NothingToJoin query={query} />
      ) : (
        <Stack gap={{ base: '10', md: '12' }}>
          {nextJoinMs > 0 && pace ? <PaceNotice waitMs={nextJoinMs} pace={pace} /> : null}
          {featuredList.length > 0 ? <FeaturedSection list={featuredList} actions={actions} /> : null}
          <MoreSection
            list={regularList}
            servers={servers}
            loadMore={loadMore}
            sentinel={sentinel}
            actions={actions}
          />
        </Stack>
      )}
    </>
  );
}

function SearchField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <Field.Root width={{ base: 'full', sm: '72' }}>
      <Field.Label srOnly>{t('discover.search')}</Field.Label>
      <InputGroup startElement={<LuSearch />} width="full">
        <Input
          type="search"
          placeholder={t('discover.searchPlaceholder')}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          bg="bg.panel"
          borderRadius="lg"
        />
      </InputGroup>
    </Field.Root>
  );
}

/** No campaign to show: none matches the search, or there is none at all. */
function NothingToJoin({ query }: { query: string }) {
  const { t } = useTranslation();
  if (query)
    return (
      <EmptyState
        icon={<LuSearch />}
        title={t('discover.noMatch', { query })}
        description={t('discover.tryAnother')}
      />
    );
  return (
    <EmptyState
      icon={<LuCompass />}
      title={t('discover.empty')}
      action={
        <Button asChild colorPalette="brand" size="sm">
          <RouterLink to="/submit">
            <LuPlus />
            {t('discover.submit')}
          </RouterLink>
        </Button>
      }
    />
  );
}

/** The join pace (decision 038), said once for the whole page before any click. */
function PaceNotice({ waitMs, pace }: { waitMs: number; pace: { perHour: number; perDay: number } }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="info" variant="subtle" borderRadius="lg" role="status">
      <Alert.Indicator>
        <LuClock />
      </Alert.Indicator>
      <Alert.Content>
        <Alert.Title>{t('discover.nextJoin', { wait: waitText(waitMs) })}</Alert.Title>
        <Alert.Description>
          {t('discover.paced', { perHour: pace.perHour, perDay: pace.perDay })}
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

function FeaturedSection({ list, actions }: { list: ApiServer[]; actions: CardActions }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <Box as="section" aria-labelledby="featured-servers">
      <SectionHeading
        id="featured-servers"
        icon={<LuStar />}
        title={t('discover.featuredTitle')}
        count={list.length}
      />
      <Alert.Root status="warning" variant="subtle" borderRadius="lg" mb="5" colorPalette="gold">
        <Alert.Indicator>
          <LuSparkles />
        </Alert.Indicator>
        <Alert.Content>
          <Alert.Title>{t('discover.featuredPays')}</Alert.Title>
          <Alert.Description>
            {t('discover.featuredRules', {
              reward: formatAmount(rewardText('featured'), locale),
              featuredDays: minStayDays('featured'),
              regularDays: minStayDays('regular'),
              penalty: formatAmount(penaltyText('featured'), locale),
            })}
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <ServerGrid list={list} actions={actions} />
    </Box>
  );
}

/** Every other campaign, a page at a time: more load as the end comes near, or with "Show more". */
function MoreSection({
  list,
  servers,
  loadMore,
  sentinel,
  actions,
}: Pick<ReturnType<typeof useDiscoverLists>, 'servers' | 'loadMore' | 'sentinel'> & {
  list: ApiServer[];
  actions: CardActions;
}) {
  const { t } = useTranslation();
  return (
    <Box as="section" aria-labelledby="more-servers">
      <SectionHeading id="more-servers" icon={<LuCompass />} title={t('discover.more')} />
      {list.length === 0 && servers.hasNextPage ? (
        <SkeletonGrid cards={3} />
      ) : list.length === 0 ? (
        <EmptyState title={t('discover.noRegular')} />
      ) : (
        <ServerGrid list={list} actions={actions} />
      )}
      {/* Infinite scroll: the next page loads when this comes within a screen of the viewport. */}
      <Box ref={sentinel} aria-hidden="true" h="1px" />
      {servers.hasNextPage ? (
        <Flex justify="center" mt="6" minH="10">
          {servers.isError ? (
            <Button variant="outline" onClick={() => void servers.fetchNextPage()}>
              {t('discover.moreFailed')}
            </Button>
          ) : (
            <Button
              variant="ghost"
              loading={servers.isFetchingNextPage}
              loadingText={t('discover.loadingMore')}
              onClick={loadMore}
            >
              {t('discover.showMore')}
            </Button>
          )}
        </Flex>
      ) : null}
    </Box>
  );
}

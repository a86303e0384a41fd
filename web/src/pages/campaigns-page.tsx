import { Button, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { PROMOTION } from '@shared/campaign-kinds.ts';
import { parseMoney } from '@shared/money.ts';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { LuCirclePlus, LuMegaphone } from 'react-icons/lu';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { QualitySummary } from '../features/campaigns/campaign-quality.tsx';
import { CampaignCard } from '../features/campaigns/campaign-card.tsx';
import { CancelCampaignDialog } from '../features/campaigns/cancel-campaign-dialog.tsx';
import { useCampaigns } from '../features/campaigns/use-campaigns.ts';
import { completionNotice } from '../features/campaigns/my-servers-list.tsx';
import { useMyServers } from '../features/campaigns/use-my-servers.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';
import { ListControls, ShowMore, useListControls } from '../features/campaigns/list-controls.tsx';
import { LazyPromoteConfirmDialog } from '../features/campaigns/lazy-promote-confirm.tsx';
import { usePromoteServer } from '../features/campaigns/use-promote-server.ts';
import { useAuth } from '../lib/use-auth.ts';
import { useTranslation } from 'react-i18next';

export default function CampaignsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.campaigns'));
  const { data, isLoading, isError, error, refetch } = useCampaigns();
  const [toCancel, setToCancel] = useState<ApiCampaign | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const campaigns = (data ?? []).filter((c) => c.membersRemaining > 0);
  const list = useListControls(campaigns);
  const { user } = useAuth();
  const balanceCents = parseMoney(user?.coins ?? '0') ?? 0;
  const promote = usePromoteServer();
  const [promoting, setPromoting] = useState<ApiCampaign | null>(null);
  const [promoteName, setPromoteName] = useState<string | null>(null);
  const { newId, newCardRef } = useRevealNewCard(list);
  const [now] = useState(() => Date.now());
  const { gridRef, setRefocusAt } = useRefocusAfterCancel(campaigns);

  return (
    <Stack gap="0">
      <PageHeader
        title={t('nav.campaigns')}
        subtitle={t('campaigns.subtitle')}
        actions={<NewCampaignButton />}
      />
      <QualitySummary />
      <UnreachableOwnerNotices />
      {isLoading ? (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          <Skeleton h="72" borderRadius="xl" />
          <Skeleton h="72" borderRadius="xl" />
        </SimpleGrid>
      ) : isError ? (
        <ErrorState
          title={t('campaigns.loadFailed')}
          description={errorMessage(error, '') || undefined}
          onRetry={() => void refetch()}
        />
      ) : campaigns.length === 0 ? (
        <NoCampaigns />
      ) : (
        <CampaignGrid
          list={list}
          gridRef={gridRef}
          newId={newId}
          newCardRef={newCardRef}
          now={now}
          onCancel={(campaign) => {
            setToCancel(campaign);
            setDialogOpen(true);
          }}
          onPromote={(campaign) => {
            setPromoting(campaign);
            setPromoteName(campaign.name);
          }}
          canAffordPromote={balanceCents >= PROMOTION.costCoins * 100}
          promotePending={promote.isPending}
        />
      )}
      <LazyPromoteConfirmDialog
        serverName={promoting?.name ?? promoteName}
        balanceCents={balanceCents}
        open={promoting !== null}
        pending={promote.isPending}
        onClose={() => setPromoting(null)}
        onConfirm={() => {
          if (!promoting) return;
          promote.mutate(promoting.id, { onSettled: () => setPromoting(null) });
        }}
      />
      <CancelCampaignDialog
        campaign={toCancel}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onCanceled={(id) => setRefocusAt({ id, index: campaigns.findIndex((c) => c.id === id) })}
      />
    </Stack>
  );
}

/**
 * After a submit the Submit page comes here with ?new=<id>: that card is shown (its page revealed),
 * outlined, scrolled into view, and says what happens next.
 */
function useRevealNewCard(list: { matched: ApiCampaign[]; reveal: (index: number) => void }) {
  const [searchParams] = useSearchParams();
  const newId = searchParams.get('new');
  const newIndex = newId ? list.matched.findIndex((c) => c.id === newId) : -1;
  const newCardRef = useRef<HTMLDivElement>(null);
  const revealed = useRef<string | null>(null);
  const { reveal } = list;
  useEffect(() => {
    if (!newId || newIndex < 0 || revealed.current === newId) return;
    reveal(newIndex);
    revealed.current = newId;
  }, [newId, newIndex, reveal]);
  const scrolled = useRef<string | null>(null);
  useEffect(() => {
    if (!newId || scrolled.current === newId || !newCardRef.current) return;
    scrolled.current = newId;
    newCardRef.current.scrollIntoView({ block: 'center' });
  });
  return { newId, newCardRef };
}

/**
 * After a cancel, its card leaves the list: focus moves to the card that took its place (its Cancel
 * button), else the previous one, else the page's main action — never back to the top of the page.
 */
function useRefocusAfterCancel(campaigns: ApiCampaign[]) {
  const gridRef = useRef<HTMLDivElement>(null);
  const [refocusAt, setRefocusAt] = useState<{ id: string; index: number } | null>(null);
  useEffect(() => {
    if (!refocusAt || campaigns.some((c) => c.id === refocusAt.id)) return;
    const buttons = gridRef.current?.querySelectorAll<HTMLButtonElement>('[data-cancel-campaign]') ?? [];
    const next = buttons[Math.min(refocusAt.index, buttons.length - 1)];
    const fallback = document.querySelector<HTMLElement>('[data-campaigns-primary]');
    (next ?? fallback)?.focus();
    setRefocusAt(null);
  }, [campaigns, refocusAt]);
  return { gridRef, setRefocusAt };
}

/** Completed campaigns whose owner Discord would not let us DM: the notice lives here instead. */
function UnreachableOwnerNotices() {
  const { t } = useTranslation();
  const unreachable = (useMyServers().data ?? []).filter(
    (s) => !s.active && !s.canceled && s.ownerUnreachable,
  );
  if (unreachable.length === 0) return null;
  return (
    <Stack gap="2" mb="4" role="status">
      {unreachable.map((s) => (
        <Text
          key={s.id}
          textStyle="sm"
          bg="bg.panel"
          borderWidth="1px"
          borderColor="border"
          borderRadius="lg"
          px="4"
          py="3"
        >
          <Text as="strong">{s.name}</Text> — {completionNotice(s, t)}
        </Text>
      ))}
    </Stack>
  );
}

/** The active campaigns' cards, with search and sort over many and "Show more". */
function CampaignGrid({
  list,
  gridRef,
  newId,
  newCardRef,
  now,
  onCancel,
  onPromote,
  canAffordPromote,
  promotePending,
}: {
  list: ReturnType<typeof useListControls<ApiCampaign>>;
  gridRef: RefObject<HTMLDivElement | null>;
  newId: string | null;
  newCardRef: RefObject<HTMLDivElement | null>;
  now: number;
  onCancel: (campaign: ApiCampaign) => void;
  onPromote: (campaign: ApiCampaign) => void;
  canAffordPromote: boolean;
  promotePending: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {list.showControls ? (
        <ListControls
          label={t('campaigns.listLabel')}
          query={list.query}
          onQuery={list.setQuery}
          sort={list.sort}
          onSort={list.setSort}
        />
      ) : null}
      {list.matched.length === 0 ? (
        <Text color="fg.muted" textAlign="center" py="8">
          {t('campaigns.noMatch', { query: list.query })}
        </Text>
      ) : null}
      <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4" ref={gridRef}>
        {list.visible.map((campaign) => (
          <CampaignCard
            key={campaign.id}
            ref={campaign.id === newId ? newCardRef : undefined}
            campaign={campaign}
            now={now}
            highlighted={campaign.id === newId}
            onCancel={() => onCancel(campaign)}
            onPromote={
              campaign.kind !== 'nobot' && !campaign.isFeatured ? () => onPromote(campaign) : undefined
            }
            canAffordPromote={canAffordPromote}
            promotePending={promotePending}
          />
        ))}
      </SimpleGrid>
      {list.hasMore ? (
        <ShowMore shown={list.visible.length} total={list.matched.length} onMore={list.showMore} />
      ) : null}
    </>
  );
}

function NewCampaignButton() {
  const { t } = useTranslation();
  return (
    <Button asChild colorPalette="brand">
      <RouterLink to="/submit" data-campaigns-primary="">
        <LuCirclePlus /> {t('campaigns.page.newCampaign')}
      </RouterLink>
    </Button>
  );
}

function NoCampaigns() {
  const { t } = useTranslation();
  return (
    <EmptyState
      icon={<LuMegaphone />}
      title={t('campaigns.emptyTitle')}
      description={t('campaigns.emptyText')}
      action={
        <Button asChild colorPalette="brand" size="sm">
          <RouterLink to="/submit">{t('dashboard.submitServer')}</RouterLink>
        </Button>
      }
    />
  );
}

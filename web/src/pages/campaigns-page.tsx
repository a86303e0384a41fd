import { Button, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { useEffect, useRef, useState } from 'react';
import { LuCirclePlus, LuMegaphone } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { CampaignCard } from '../features/campaigns/campaign-card.tsx';
import { CancelCampaignDialog } from '../features/campaigns/cancel-campaign-dialog.tsx';
import { useCampaigns } from '../features/campaigns/use-campaigns.ts';
import { completionNotice } from '../features/campaigns/my-servers-list.tsx';
import { useMyServers } from '../features/campaigns/use-my-servers.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';

export default function CampaignsPage() {
  useDocumentTitle('My Campaigns');
  const { data, isLoading, isError, error, refetch } = useCampaigns();
  const [toCancel, setToCancel] = useState<ApiCampaign | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const campaigns = (data ?? []).filter((c) => c.membersRemaining > 0);
  const gridRef = useRef<HTMLDivElement>(null);
  // After a cancel, its card leaves the list: focus moves to the card that took its place (its Cancel
  // button), else the previous one, else the page's main action — never back to the top of the page.
  const [refocusAt, setRefocusAt] = useState<{ id: string; index: number } | null>(null);
  useEffect(() => {
    if (!refocusAt || campaigns.some((c) => c.id === refocusAt.id)) return;
    const buttons = gridRef.current?.querySelectorAll<HTMLButtonElement>('[data-cancel-campaign]') ?? [];
    const next = buttons[Math.min(refocusAt.index, buttons.length - 1)];
    const fallback = document.querySelector<HTMLElement>('[data-campaigns-primary]');
    (next ?? fallback)?.focus();
    setRefocusAt(null);
  }, [campaigns, refocusAt]);
  // Completed campaigns whose owner Discord would not let us DM: the notice lives here instead.
  const unreachable = (useMyServers().data ?? []).filter(
    (s) => !s.active && !s.canceled && s.ownerUnreachable,
  );

  return (
    <Stack gap="0">
      <PageHeader
        title="My Campaigns"
        subtitle="Manage your server growth campaigns and track member joins."
        actions={
          <Button asChild colorPalette="brand">
            <RouterLink to="/submit" data-campaigns-primary="">
              <LuCirclePlus /> New Campaign
            </RouterLink>
          </Button>
        }
      />
      {unreachable.length > 0 ? (
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
              <Text as="strong">{s.name}</Text> — {completionNotice(s)}
            </Text>
          ))}
        </Stack>
      ) : null}
      {isLoading ? (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
          <Skeleton h="72" borderRadius="xl" />
          <Skeleton h="72" borderRadius="xl" />
        </SimpleGrid>
      ) : isError ? (
        <ErrorState
          title="Could not load your campaigns."
          description={errorMessage(error, '') || undefined}
          onRetry={() => void refetch()}
        />
      ) : campaigns.length === 0 ? (
        <EmptyState
          icon={<LuMegaphone />}
          title="You don't have any active campaigns yet"
          description="Submit a server to get started!"
          action={
            <Button asChild colorPalette="brand" size="sm">
              <RouterLink to="/submit">Submit a Server</RouterLink>
            </Button>
          }
        />
      ) : (
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4" ref={gridRef}>
          {campaigns.map((campaign) => (
            <CampaignCard
              key={campaign.id}
              campaign={campaign}
              onCancel={() => {
                setToCancel(campaign);
                setDialogOpen(true);
              }}
            />
          ))}
        </SimpleGrid>
      )}
      <CancelCampaignDialog
        campaign={toCancel}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onCanceled={(id) => setRefocusAt({ id, index: campaigns.findIndex((c) => c.id === id) })}
      />
    </Stack>
  );
}

import { Button, SimpleGrid, Skeleton, Stack } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { useState } from 'react';
import { LuCirclePlus, LuMegaphone } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { CampaignCard } from '../features/campaigns/campaign-card.tsx';
import { CancelCampaignDialog } from '../features/campaigns/cancel-campaign-dialog.tsx';
import { useCampaigns } from '../features/campaigns/use-campaigns.ts';
import { errorMessage } from '../lib/api.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';

export default function CampaignsPage() {
  useDocumentTitle('My Campaigns');
  const { data, isLoading, isError, error, refetch } = useCampaigns();
  const [toCancel, setToCancel] = useState<ApiCampaign | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const campaigns = (data ?? []).filter((c) => c.membersRemaining > 0);

  return (
    <Stack gap="0">
      <PageHeader
        title="My Campaigns"
        subtitle="Manage your server growth campaigns and track member joins."
        actions={
          <Button asChild colorPalette="brand">
            <RouterLink to="/submit">
              <LuCirclePlus /> New Campaign
            </RouterLink>
          </Button>
        }
      />
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
        <SimpleGrid columns={{ base: 1, md: 2, xl: 3 }} gap="4">
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
      <CancelCampaignDialog campaign={toCancel} open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </Stack>
  );
}

import { Button, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiJoin } from '@shared/api-types.ts';
import { LuListChecks } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { openInviteTab } from '../features/discover/invite-tab.ts';
import { JoinCard } from '../features/joins/join-card.tsx';
import { useMyJoins } from '../features/joins/use-my-joins.ts';
import { useClaimJoin, useRetryJoin } from '../features/joins/use-retry-join.ts';
import { errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toaster.tsx';
import { markClaimedHere } from '../lib/claimed-here.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export default function MyJoinsPage() {
  useDocumentTitle('My Joins');
  const { data, isLoading, isError, error } = useMyJoins();
  const retry = useRetryJoin();
  const claim = useClaimJoin();

  const onRetry = (join: ApiJoin) => {
    const tab = openInviteTab();
    retry.mutate(join, {
      onSuccess: (res) => {
        tab.go(res.inviteLink);
        toast({
          title: 'Invite opened',
          description: `Accept the invite to ${join.serverName} to earn your coins.`,
        });
      },
      onError: (err) => {
        tab.close();
        toast({
          title: 'Join Failed',
          description: errorMessage(err, 'Could not join. Please try again.'),
          variant: 'destructive',
        });
      },
    });
  };
  const onClaim = (join: ApiJoin) => {
    claim.mutate(join, {
      onSuccess: (res) => {
        markClaimedHere(join.campaignId);
        toast({
          title: 'Coins Earned!',
          description: `+${res.earned} coins added to your balance`,
          variant: 'success',
        });
      },
      onError: (err) =>
        toast({
          title: 'Claim Failed',
          description: errorMessage(err, 'Could not claim. Please try again.'),
          variant: 'destructive',
        }),
    });
  };
  const busyId = retry.isPending ? retry.variables?.id : claim.isPending ? claim.variables?.id : undefined;

  return (
    <Stack gap="0">
      <PageHeader
        title="My Joins"
        subtitle="Every server you joined through CoinSync: what you earned, and when you are free to leave."
      />
      {isLoading ? (
        <Stack gap="3">
          <Skeleton h="24" borderRadius="xl" />
          <Skeleton h="24" borderRadius="xl" />
        </Stack>
      ) : isError ? (
        <Text color="red.fg">{errorMessage(error, 'Could not load your joins.')}</Text>
      ) : (data ?? []).length === 0 ? (
        <EmptyState
          icon={<LuListChecks />}
          title="You haven't joined any servers yet"
          description="Join servers on Discover to earn coins."
          action={
            <Button asChild colorPalette="brand" size="sm">
              <RouterLink to="/">Discover servers</RouterLink>
            </Button>
          }
        />
      ) : (
        <Stack gap="3">
          {(data ?? []).map((join) => (
            <JoinCard
              key={join.id}
              join={join}
              onRetry={onRetry}
              onClaim={onClaim}
              busy={busyId === join.id}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

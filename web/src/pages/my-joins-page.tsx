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
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../lib/format.ts';
import { PRODUCT_NAME } from '../lib/brand.ts';
import { useLocale } from '../lib/i18n.ts';

export default function MyJoinsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.joins'));
  const { data, isLoading, isError, error } = useMyJoins();
  const retry = useRetryJoin();
  const claim = useClaimJoin();

  const onRetry = (join: ApiJoin) => {
    const tab = openInviteTab();
    retry.mutate(join, {
      onSuccess: (res) => {
        tab.go(res.inviteLink);
        toast({
          title: t('joins.inviteOpened'),
          description: t('joins.acceptInvite', { name: join.serverName }),
        });
      },
      onError: (err) => {
        tab.close();
        toast({
          title: t('joins.joinFailed'),
          description: errorMessage(err, t('joins.joinFailedText')),
          variant: 'destructive',
        });
      },
    });
  };
  const onClaim = useClaimWithToast(claim);
  const busyId = retry.isPending ? retry.variables?.id : claim.isPending ? claim.variables?.id : undefined;

  return (
    <Stack gap="0">
      <PageHeader title={t('nav.joins')} subtitle={t('joins.subtitle', { product: PRODUCT_NAME })} />
      {isLoading ? (
        <Stack gap="3">
          <Skeleton h="24" borderRadius="xl" />
          <Skeleton h="24" borderRadius="xl" />
        </Stack>
      ) : isError ? (
        <Text color="red.fg">{errorMessage(error, t('joins.loadFailed'))}</Text>
      ) : (data ?? []).length === 0 ? (
        <EmptyState
          icon={<LuListChecks />}
          title={t('joins.emptyTitle')}
          description={t('joins.emptyText')}
          action={
            <Button asChild colorPalette="brand" size="sm">
              <RouterLink to="/">{t('joins.discover')}</RouterLink>
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

/** Claim on a no-bot join, with its toast. */
function useClaimWithToast(claim: ReturnType<typeof useClaimJoin>) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (join: ApiJoin) => {
    claim.mutate(join, {
      onSuccess: (res) => {
        markClaimedHere(join.campaignId);
        toast({
          title: t('joins.earned'),
          description: t('rewards.added', { coins: formatAmount(res.earned, locale) }),
          variant: 'success',
        });
      },
      onError: (err) =>
        toast({
          title: t('joins.claimFailed'),
          description: errorMessage(err, t('joins.claimFailedText')),
          variant: 'destructive',
        }),
    });
  };
}

import { Heading, SimpleGrid, Spinner, Stack, Text, VStack } from '@chakra-ui/react';
import type { ApiSocialTask } from '@shared/api-types.ts';
import { SOCIAL_CLAIM_DELAY_MS } from '@shared/social-constants.ts';
import { LuShare2 } from 'react-icons/lu';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useNow } from '../features/rewards/use-now.ts';
import { SocialTaskCard } from '../features/social/social-task-card.tsx';
import { startSocialTask } from '../features/social/social-claim-kind.ts';
import { useSocialTasks } from '../features/social/use-social-tasks.ts';
import { YouTubeCard } from '../features/social/youtube-card.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { toast } from '../lib/toaster.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';
import { delayedClaims, usePendingClaims } from '../claims.ts';
import { errorMessage } from '../lib/api.ts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export default function SocialsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.socials'), t('social.subtitle'));
  const { user } = useAuth();
  const { data: tasks, isLoading, isError, refetch } = useSocialTasks();
  const userId = user?.id ?? 'anonymous';
  // Claims run app-wide (claims.ts): started here, they still fire after the member leaves this page.
  const pending = usePendingClaims('social');
  const pendingFor = (taskId: string) => pending.find((p) => p.id === taskId);

  // Product spec (docs/spec/product-spec.md) §4: pending claims for tasks no longer listed (or already completed) are dropped.
  useEffect(() => {
    if (tasks)
      delayedClaims.retainOnly('social', new Set(tasks.filter((t) => !t.completed).map((t) => t.id)));
  }, [tasks]);

  const startTask = useStartTask(userId);
  const youtube = tasks?.find((task) => task.platform === 'youtube');
  const others = (tasks ?? []).filter((task) => task !== youtube);

  const anyPending = (tasks ?? []).some((task) => pendingFor(task.id));
  const now = useNow(anyPending, 500);
  const pendingSeconds = (task: ApiSocialTask | undefined): number | null => {
    const claim = task ? pendingFor(task.id) : undefined;
    return claim ? Math.ceil(Math.min(Math.max(0, claim.claimAt - now), SOCIAL_CLAIM_DELAY_MS) / 1000) : null;
  };

  const startYouTube = () => {
    if (!youtube) {
      toast({
        title: t('common.error'),
        description: t('social.youtubeMissing'),
        variant: 'destructive',
      });
      return;
    }
    startTask(youtube);
  };

  return (
    <>
      <PageHeader title={t('nav.socials')} subtitle={t('social.subtitle')} />
      {isLoading ? (
        <VStack py="16" gap="3" color="fg.muted">
          <Spinner color="brand.fg" size="lg" />
          <Text>{t('social.loading')}</Text>
        </VStack>
      ) : isError ? (
        <ErrorState title={t('social.loadFailed')} onRetry={() => void refetch()} />
      ) : (
        <Stack gap={{ base: '8', md: '10' }}>
          <YouTubeCard task={youtube} pendingSeconds={pendingSeconds(youtube)} onStart={startYouTube} />
          <Stack gap="4">
            <Stack gap="1">
              <Heading as="h2" textStyle="xl" fontWeight="semibold">
                {t('social.everywhere')}
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                {t('social.howItWorks', { seconds: SOCIAL_CLAIM_DELAY_MS / 1000 })}
              </Text>
            </Stack>
            {others.length === 0 ? (
              <EmptyState
                icon={<LuShare2 />}
                title={t('social.emptyTitle')}
                description={t('social.emptyText')}
              />
            ) : (
              <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap={{ base: '4', md: '5' }}>
                {others.map((task) => (
                  <SocialTaskCard
                    key={task.id}
                    task={task}
                    pendingSeconds={pendingSeconds(task)}
                    onStart={startTask}
                  />
                ))}
              </SimpleGrid>
            )}
          </Stack>
        </Stack>
      )}
    </>
  );
}

/**
 * Starts a task: its page opens in a new tab (synchronously, inside the click, so pop-up blockers allow
 * it) and its claim is scheduled app-wide at the server's due time.
 */
function useStartTask(userId: string) {
  const { t } = useTranslation();
  return (task: ApiSocialTask) => {
    window.open(task.url, '_blank', 'noopener,noreferrer');
    delayedClaims.add(userId, 'social', task.id);
    startSocialTask(task.id).then(
      ({ claimableAt }) => {
        // The server's own due time (the browser's wait is capped at the delay if the clocks disagree).
        const claimAt = Date.parse(claimableAt);
        if (Number.isFinite(claimAt)) delayedClaims.reschedule('social', task.id, claimAt);
      },
      (err: unknown) => {
        delayedClaims.remove('social', task.id);
        toast({
          title: t('common.error'),
          description: errorMessage(err, t('social.completeFailed')),
          variant: 'destructive',
        });
      },
    );
  };
}

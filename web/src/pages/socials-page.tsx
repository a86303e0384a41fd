import { Heading, SimpleGrid, Spinner, Stack, Text, VStack } from '@chakra-ui/react';
import type { ApiSocialTask } from '@shared/api-types.ts';
import { LuShare2 } from 'react-icons/lu';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { useNow } from '../features/rewards/use-now.ts';
import { delayUntil } from '../features/social/pending-claims.ts';
import { SocialTaskCard } from '../features/social/social-task-card.tsx';
import { useSocialClaims } from '../features/social/use-social-claims.ts';
import { useSocialTasks } from '../features/social/use-social-tasks.ts';
import { YouTubeCard } from '../features/social/youtube-card.tsx';
import { useAuth } from '../lib/use-auth.ts';
import { toast } from '../lib/toaster.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';

export default function SocialsPage() {
  useDocumentTitle('Socials', 'Follow us on social media and earn coins.');
  const { user } = useAuth();
  const { data: tasks, isLoading, isError, refetch } = useSocialTasks();
  const claims = useSocialClaims(user?.id ?? 'anonymous', tasks);
  const youtube = tasks?.find((t) => t.platform === 'youtube');
  const others = (tasks ?? []).filter((t) => t !== youtube);

  const anyPending = (tasks ?? []).some((t) => claims.pendingFor(t.id));
  const now = useNow(anyPending, 500);
  const pendingSeconds = (task: ApiSocialTask | undefined): number | null => {
    const claim = task ? claims.pendingFor(task.id) : undefined;
    return claim ? Math.ceil(delayUntil(claim.claimAt, now) / 1000) : null;
  };

  const startYouTube = () => {
    if (!youtube) {
      toast({ title: 'Error', description: 'YouTube task not found. Please contact support.', variant: 'destructive' });
      return;
    }
    claims.startTask(youtube);
  };

  return (
    <>
      <PageHeader title="Socials" subtitle="Follow us on social media and earn coins." />
      {isLoading ? (
        <VStack py="16" gap="3" color="fg.muted">
          <Spinner color="brand.fg" size="lg" />
          <Text>Loading tasks...</Text>
        </VStack>
      ) : isError ? (
        <ErrorState title="Could not load social tasks." onRetry={() => void refetch()} />
      ) : (
        <Stack gap={{ base: '8', md: '10' }}>
          <YouTubeCard task={youtube} pendingSeconds={pendingSeconds(youtube)} onStart={startYouTube} />
          <Stack gap="4">
            <Stack gap="1">
              <Heading as="h2" textStyle="xl" fontWeight="semibold">
                Follow us everywhere
              </Heading>
              <Text color="fg.muted" textStyle="sm">
                Open a task, follow the account, and your coins arrive automatically about 15 seconds later.
              </Text>
            </Stack>
            {others.length === 0 ? (
              <EmptyState icon={<LuShare2 />} title="No other social tasks right now" description="Check back soon for new ways to earn." />
            ) : (
              <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap={{ base: '4', md: '5' }}>
                {others.map((task) => (
                  <SocialTaskCard
                    key={task.id}
                    task={task}
                    pendingSeconds={pendingSeconds(task)}
                    onStart={claims.startTask}
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

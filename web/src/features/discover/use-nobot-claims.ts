import { useEffect } from 'react';
import { NOBOT_CLAIM_DELAY_MS } from '@shared/join-constants.ts';
import { errorMessage } from '../../lib/api.ts';
import { queryClient } from '../../lib/query-client.ts';
import { toast } from '../../lib/toaster.tsx';
import { claimNoBot } from './claim-nobot.ts';
import { invalidateAfterJoin } from './invalidate-after-join.ts';
import { NobotClaimScheduler } from './nobot-claim-scheduler.ts';

// One scheduler for the whole tab, so claims survive navigating away from Discover.
const scheduler = new NobotClaimScheduler({
  claim: claimNoBot,
  onEarned(earned) {
    void invalidateAfterJoin(queryClient);
    toast({ title: 'Coins Earned!', description: `+${earned} coins added to your balance` });
  },
  onFailed(error) {
    void invalidateAfterJoin(queryClient);
    toast({
      title: 'Claim Failed',
      description: errorMessage(
        error,
        'Failed to claim coins. The reward will retry when you refresh the page.',
      ),
      variant: 'destructive',
    });
  },
});

/** Resumes this member's stored no-bot claims on page load and returns a function to add one. */
export function useNobotClaims(userId: string) {
  useEffect(() => {
    scheduler.resume(userId);
  }, [userId]);
  return {
    addPendingClaim: (serverId: string) => scheduler.add(userId, serverId, NOBOT_CLAIM_DELAY_MS),
  };
}

import type { LiveEvent } from '@shared/live-events.ts';
import type { ToastInput } from '../../lib/toaster.tsx';

/** What a live event says in its toast; the payment text is the spec's checkout success toast. */
export function liveEventToast(event: LiveEvent): ToastInput {
  switch (event.type) {
    case 'join_verified':
      return {
        title: 'Join Verified!',
        description: `+${event.amount} coins added to your balance for joining ${event.serverName}`,
        variant: 'success',
      };
    case 'nobot_reward':
      return {
        title: 'Reward Claimed!',
        description: `+${event.amount} coins added to your balance for joining ${event.serverName}`,
        variant: 'success',
      };
    case 'penalty_refunded':
      return {
        title: 'Penalty Refunded',
        description: `+${event.amount} coins back: a moderator removed you from ${event.serverName}, so leaving cost nothing`,
        variant: 'success',
      };
    case 'penalty_charged':
      return {
        title: 'Early Leave Penalty',
        description: `−${event.amount} coins: you left ${event.serverName} before the minimum stay`,
        variant: 'destructive',
      };
    case 'campaign_completed':
      return {
        title: 'Campaign Completed!',
        description: `${event.serverName} received all ${event.members} member${event.members === 1 ? '' : 's'}`,
        variant: 'success',
      };
    case 'payment_credited':
      return { title: 'Payment Successful', description: 'Your coins have been added!', variant: 'success' };
  }
}

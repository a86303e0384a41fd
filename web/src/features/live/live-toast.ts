import type { LiveEvent } from '@shared/live-events.ts';
import { formatAmount } from '../../lib/format.ts';
import { i18n } from '../../lib/i18n.ts';
import type { ToastInput } from '../../lib/toaster.tsx';

/** What a live event says in its toast; the payment text is the spec's checkout success toast. */
export function liveEventToast(event: LiveEvent): ToastInput {
  switch (event.type) {
    case 'join_verified':
      return {
        title: i18n.t('live.joinVerified'),
        description: i18n.t('live.earnedForJoining', {
          amount: formatAmount(event.amount),
          server: event.serverName,
        }),
        variant: 'success',
      };
    case 'nobot_reward':
      return {
        title: i18n.t('live.rewardClaimed'),
        description: i18n.t('live.earnedForJoining', {
          amount: formatAmount(event.amount),
          server: event.serverName,
        }),
        variant: 'success',
      };
    case 'penalty_refunded':
      return {
        title: i18n.t('live.penaltyRefunded'),
        description: i18n.t('live.penaltyRefundedText', {
          amount: formatAmount(event.amount),
          server: event.serverName,
        }),
        variant: 'success',
      };
    case 'penalty_charged':
      return {
        title: i18n.t('live.penaltyCharged'),
        description: i18n.t('live.penaltyChargedText', {
          amount: formatAmount(event.amount),
          server: event.serverName,
        }),
        variant: 'destructive',
      };
    case 'campaign_completed':
      return {
        title: i18n.t('live.campaignCompleted'),
        description: i18n.t('live.campaignCompletedText', { server: event.serverName, count: event.members }),
        variant: 'success',
      };
    case 'payment_credited':
      return {
        title: i18n.t('checkout.successTitle'),
        description: i18n.t('checkout.successDescription'),
        variant: 'success',
      };
  }
}

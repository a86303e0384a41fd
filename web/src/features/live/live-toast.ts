import type { LiveEvent } from '@shared/live-events.ts';
import { formatAmount } from '../../lib/format.ts';
import { i18n } from '../../lib/i18n.ts';
import type { ToastInput } from '../../lib/toaster.tsx';

/** The events about an amount in a server: their title, their text (naming both) and their colour. */
const AMOUNT_IN_SERVER = {
  join_verified: ['live.joinVerified', 'live.earnedForJoining', 'success'],
  nobot_reward: ['live.rewardClaimed', 'live.earnedForJoining', 'success'],
  penalty_refunded: ['live.penaltyRefunded', 'live.penaltyRefundedText', 'success'],
  penalty_charged: ['live.penaltyCharged', 'live.penaltyChargedText', 'destructive'],
} as const;

/** What a live event says in its toast; the payment text is the spec's checkout success toast. */
export function liveEventToast(event: LiveEvent): ToastInput {
  switch (event.type) {
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
    default: {
      const [title, text, variant] = AMOUNT_IN_SERVER[event.type];
      const values = { amount: formatAmount(event.amount), server: event.serverName };
      return { title: i18n.t(title), description: i18n.t(text, values), variant };
    }
  }
}

import type { LiveEvent } from '@shared/live-events.ts';
import { formatAmount } from '../../lib/format.ts';
import { i18n } from '../../lib/i18n.ts';
import type { ToastInput } from '../../lib/toaster.tsx';

/** The events about an amount in a server: their title, their text (naming both) and their colour. */
const AMOUNT_IN_SERVER = {
  join_verified: { titleKey: 'live.joinVerified', textKey: 'live.earnedForJoining', variant: 'success' },
  nobot_reward: { titleKey: 'live.rewardClaimed', textKey: 'live.earnedForJoining', variant: 'success' },
  penalty_refunded: {
    titleKey: 'live.penaltyRefunded',
    textKey: 'live.penaltyRefundedText',
    variant: 'success',
  },
  penalty_charged: {
    titleKey: 'live.penaltyCharged',
    textKey: 'live.penaltyChargedText',
    variant: 'destructive',
  },
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
      const { titleKey, textKey, variant } = AMOUNT_IN_SERVER[event.type];
      const values = { amount: formatAmount(event.amount), server: event.serverName };
      return { title: i18n.t(titleKey), description: i18n.t(textKey, values), variant };
    }
  }
}

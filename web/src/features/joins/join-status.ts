import type { ApiJoin } from '@shared/api-types.ts';
import type { TFunction } from 'i18next';
import type { Locale } from '@shared/i18n/index.ts';
import { formatAmount, formatDate } from '../../lib/format.ts';

// The texts of issue 12 for each join state; amounts and dates come from the join's frozen terms.

export interface JoinStatus {
  label: string;
  palette: 'gray' | 'blue' | 'green' | 'red' | 'orange';
}

const PALETTE: Record<ApiJoin['state'], JoinStatus['palette']> = {
  waiting: 'blue',
  verified: 'green',
  stayed: 'green',
  left_early: 'red',
  left: 'gray',
  no_reward: 'gray',
  same_address: 'gray',
  expired: 'orange',
};

/** The state in words, in the member's language. */
function joinStateText(join: ApiJoin, t: TFunction, locale: Locale, timeZone?: string): string {
  switch (join.state) {
    case 'waiting':
      return t('joins.state.waiting');
    case 'verified':
      return t('joins.state.verified', {
        reward: formatAmount(join.reward ?? '0.00', locale),
        until: join.safeToLeaveAt ? formatDateTime(join.safeToLeaveAt, timeZone, locale) : '',
      });
    case 'stayed':
      return t('joins.state.stayed');
    case 'left_early':
      return t('joins.state.leftEarly', { penalty: formatAmount(join.penalty ?? '0.00', locale) });
    case 'left':
      return t('joins.state.left');
    case 'no_reward':
      return t('joins.state.noReward');
    case 'same_address':
      return t('joins.state.sameAddress');
    case 'expired':
      return t('joins.state.expired');
  }
}

/** The label in the app's language and the colour. `timeZone` as for formatDateTime. */
export function joinStatus(join: ApiJoin, t: TFunction, locale: Locale, timeZone?: string): JoinStatus {
  return { label: joinStateText(join, t, locale, timeZone), palette: PALETTE[join.state] };
}

/**
 * "Jan 5, 2026, 3:04 PM": a stay ends at a time of day, not just a date. In the browser's time zone, or
 * `timeZone` (a server-rendered page shows UTC until hydrated: the server cannot know the browser's).
 */
export function formatDateTime(iso: string, timeZone: string | undefined, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return formatDate(iso, timeZone, locale);
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  });
}

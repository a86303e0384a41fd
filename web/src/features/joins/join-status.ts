import type { ApiJoin } from '@shared/api-types.ts';
import { joinStateLabel } from '@shared/join-state-text.ts';
import { formatDate } from '../../lib/format.ts';

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

/** The label is shared with the bot's /joins (src/shared/join-state-text.ts); the colour is the web's. */
export function joinStatus(join: ApiJoin): JoinStatus {
  return { label: joinStateLabel(join, formatDateTime), palette: PALETTE[join.state] };
}

/** "Jan 5, 2026, 3:04 PM": a stay ends at a time of day, not just a date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return formatDate(iso);
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

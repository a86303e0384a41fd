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

/**
 * The label is shared with the bot's /joins (src/shared/join-state-text.ts); the colour is the web's.
 * `timeZone` as for formatDateTime.
 */
export function joinStatus(join: ApiJoin, timeZone?: string): JoinStatus {
  return {
    label: joinStateLabel(join, (iso) => formatDateTime(iso, timeZone)),
    palette: PALETTE[join.state],
  };
}

/**
 * "Jan 5, 2026, 3:04 PM": a stay ends at a time of day, not just a date. In the browser's time zone, or
 * `timeZone` (a server-rendered page shows UTC until hydrated: the server cannot know the browser's).
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return formatDate(iso, timeZone);
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone } : {}),
  });
}

import type { ApiJoin } from '@shared/api-types.ts';
import { formatDate } from '../../lib/format.ts';

// The texts of issue 12 for each join state; amounts and dates come from the join's frozen terms.

export interface JoinStatus {
  label: string;
  palette: 'gray' | 'blue' | 'green' | 'red' | 'orange';
}

export function joinStatus(join: ApiJoin): JoinStatus {
  switch (join.state) {
    case 'waiting':
      return { label: 'Waiting for you to accept the invite', palette: 'blue' };
    case 'verified':
      return {
        label: `Verified +${join.reward ?? '0.00'}, stay until ${join.safeToLeaveAt ? formatDateTime(join.safeToLeaveAt) : ''}`,
        palette: 'green',
      };
    case 'stayed':
      return { label: 'Stayed, keep or leave freely', palette: 'green' };
    case 'left_early':
      return { label: `Left early −${join.penalty ?? '0.00'}`, palette: 'red' };
    case 'left':
      return { label: 'Left, no penalty', palette: 'gray' };
    case 'no_reward':
      return { label: 'Verified after the last slot was taken, no reward', palette: 'gray' };
    case 'same_address':
      return { label: "No reward: you share an internet connection with the server's owner", palette: 'gray' };
    case 'expired':
      return { label: 'Expired, join again', palette: 'orange' };
  }
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

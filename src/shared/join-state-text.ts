import type { ApiJoin } from './api-types.ts';

// What each join state is called (issue 12's texts), for the website's My Joins and the bot's /joins.
// Dates are formatted by the caller: the web in the browser's locale, the bot as a Discord timestamp.

export function joinStateLabel(join: ApiJoin, formatDateTime: (iso: string) => string): string {
  switch (join.state) {
    case 'waiting':
      return 'Waiting for you to accept the invite';
    case 'verified':
      return `Verified +${join.reward ?? '0.00'}, stay until ${join.safeToLeaveAt ? formatDateTime(join.safeToLeaveAt) : ''}`;
    case 'stayed':
      return 'Stayed, keep or leave freely';
    case 'left_early':
      return `Left early −${join.penalty ?? '0.00'}`;
    case 'left':
      return 'Left, no penalty';
    case 'no_reward':
      return 'Verified after the last slot was taken, no reward';
    case 'same_address':
      return "No reward: you share an internet connection with the server's owner";
    case 'expired':
      return 'Expired, join again';
  }
}

import { formatWait } from '../../rewards/claim-reward.ts';

// Small wording helpers shared by the commands. Waits use the web's own formatWait (the cooldown
// refusal reads "You can claim your hourly reward again in 23 minutes." in both places).

export { formatWait };

/** "2 days", "5 days", "36 hours": a stay or a delay, from milliseconds. */
export function formatDuration(ms: number): string {
  const hours = Math.round(ms / 3_600_000);
  if (hours % 24 === 0) {
    const days = hours / 24;
    return `${days} day${days === 1 ? '' : 's'}`;
  }
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

/**
 * A Discord timestamp: each reader's client shows it in their own time zone and language
 * (`f` "January 5, 2026 3:04 PM", `R` "in 2 days").
 */
export function discordTime(ms: number, style: 'f' | 'R' | 'D' = 'f'): string {
  return `<t:${Math.floor(ms / 1000)}:${style}>`;
}

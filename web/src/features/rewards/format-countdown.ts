/** Hourly countdown in minutes: "42 minutes", "1 minute" (rounded up, never 0 while waiting). */
import type { TFunction } from 'i18next';
export function formatMinutes(ms: number, t: TFunction): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return t('rewards.minutes', { count: minutes });
}

/** Bonus and daily countdown in hours and minutes: "5h 12m" (rounded up to the minute). */
export function formatHoursMinutes(ms: number, t: TFunction): string {
  const total = Math.max(1, Math.ceil(ms / 60_000));
  return t('rewards.hoursMinutes', { hours: Math.floor(total / 60), minutes: total % 60 });
}

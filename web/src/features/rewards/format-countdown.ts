/** Hourly countdown in minutes: "42 minutes", "1 minute" (rounded up, never 0 while waiting). */
export function formatMinutes(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Bonus and daily countdown in hours and minutes: "5h 12m" (rounded up to the minute). */
export function formatHoursMinutes(ms: number): string {
  const total = Math.max(1, Math.ceil(ms / 60_000));
  return `${Math.floor(total / 60)}h ${total % 60}m`;
}

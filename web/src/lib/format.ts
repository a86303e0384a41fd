import { formatCoins, parseMoney } from '@shared/money.ts';

export { formatCents, formatCoins, parseMoney, coinsToCents } from '@shared/money.ts';

/** Signed ledger amount with 2 decimals: "2" → "+2.00", "-2" → "-2.00". */
export function formatSignedCoins(value: string | null | undefined): string {
  const text = formatCoins(value);
  return (parseMoney(text) ?? 0) >= 0 ? `+${text}` : text;
}

/** True when a "12.50"-style amount is zero or positive (for green/red styling). */
export function isNonNegative(value: string | null | undefined): boolean {
  return (parseMoney(formatCoins(value)) ?? 0) >= 0;
}

/**
 * Short date for lists, e.g. "Jan 5, 2026", in the browser's time zone (or `timeZone`: the server, which
 * does not know the browser's, renders UTC; see useLocalDate).
 */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  });
}

/** "Jan 5, 2026, 3:04 PM" (a ledger entry or a join happened at a time of day, not just on a date). */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
  });
}

/** Dollars from cents: 1000 → "$10.00". */
export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

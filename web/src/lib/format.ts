import { formatMoneyText, type Locale } from '@shared/i18n/index.ts';
import { formatCoins, parseMoney } from '@shared/money.ts';
import { currentLocale } from './i18n.ts';

export { formatCents, formatCoins, parseMoney, coinsToCents } from '@shared/money.ts';

// Display formats follow the app's language (decision 050): pass the `useLocale()` value from a component,
// so it re-renders on a switch; the default is the language the app renders in now.

/** A "12.50"-style amount in the locale's digits: "1,234.50" (en), "1.234,50" (de). */
export function formatAmount(value: string | null | undefined, locale: Locale = currentLocale()): string {
  return formatMoneyText(formatCoins(value), locale);
}

/** Signed ledger amount with 2 decimals: "2" → "+2.00", "-2" → "-2.00". */
export function formatSignedCoins(
  value: string | null | undefined,
  locale: Locale = currentLocale(),
): string {
  return formatMoneyText(formatCoins(value), locale, { signed: true });
}

/** True when a "12.50"-style amount is zero or positive (for green/red styling). */
export function isNonNegative(value: string | null | undefined): boolean {
  return (parseMoney(formatCoins(value)) ?? 0) >= 0;
}

/**
 * Short date for lists, e.g. "Jan 5, 2026", in the browser's time zone (or `timeZone`: the server, which
 * does not know the browser's, renders UTC; see useLocalDate).
 */
export function formatDate(iso: string, timeZone?: string, locale: Locale = currentLocale()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  });
}

/** "Jan 5, 2026, 3:04 PM" (a ledger entry or a join happened at a time of day, not just on a date). */
export function formatDateTime(iso: string, timeZone?: string, locale: Locale = currentLocale()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone ? { timeZone, timeZoneName: 'short' } : {}),
  });
}

/** A whole number (coins in a pack, members) in the locale's grouping: "1,000" (en), "1.000" (de). */
export function formatWhole(value: number, locale: Locale = currentLocale()): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

// Money travels as "12.50" strings and lives as integer hundredths ("cents") everywhere else.
// These helpers are shared by the server and the web app so both round and format identically.

/** Largest balance a decimal(10,2) column holds: 99,999,999.99. */
export const MAX_CENTS = 9_999_999_999;

const MONEY_PATTERN = /^-?\d{1,8}(\.\d{1,2})?$/;

/** "12.5" → 1250. Returns null for anything that is not a plain decimal with at most 2 places. */
export function parseMoney(value: string): number | null {
  const text = value.trim();
  if (!MONEY_PATTERN.test(text)) return null;
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/** 1250 → "12.50", -200 → "-2.00". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Display helper for money strings coming from the API; tolerates missing values. */
export function formatCoins(value: string | null | undefined, fallback = '0.00'): string {
  if (value == null || value === '') return fallback;
  const cents = parseMoney(value);
  return cents == null ? fallback : formatCents(cents);
}

/** Whole coins (e.g. a member-slot count) → cents. */
export function coinsToCents(coins: number): number {
  return Math.round(coins * 100);
}

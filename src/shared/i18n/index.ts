// The one i18n setup shared by the web app, the bot and the server (decision 050).
// Library: i18next (react-i18next on the web). Catalogues are JSON files under
// src/shared/i18n/locales/<locale>/<namespace>.json; English is the source and keeps the
// product spec's texts word for word. Plurals use i18next's _one/_other suffixes
// (Intl.PluralRules); numbers and dates use Intl.NumberFormat / Intl.DateTimeFormat below.

/** Our locales, English first (the source and the fallback). */
export const SUPPORTED_LOCALES = ['en', 'es', 'pt-BR', 'fr', 'de', 'tr'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Catalogue namespaces: `web` (the web app), `bot` (bot replies), `server` (API messages). */
export const NAMESPACES = ['web', 'bot', 'server'] as const;

/** Each locale's own name, for the language switcher (never translated). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  tr: 'Türkçe',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/**
 * A Discord locale (user.locale at sign-in, interaction.locale, guild_locale) or a browser
 * language tag → one of ours. `en-US`, `en-GB` → en; `es-ES`, `es-419` → es; `pt-BR` (and any
 * other Portuguese) → pt-BR; `fr`, `de`, `tr` as they are; anything else or nothing → en.
 */
export function resolveLocale(tag: string | null | undefined): Locale {
  if (typeof tag !== 'string') return DEFAULT_LOCALE;
  const clean = tag.trim().replace('_', '-').toLowerCase();
  if (clean === '') return DEFAULT_LOCALE;
  const exact = SUPPORTED_LOCALES.find((locale) => locale.toLowerCase() === clean);
  if (exact) return exact;
  const language = clean.split('-')[0];
  if (language === 'pt') return 'pt-BR';
  const byLanguage = SUPPORTED_LOCALES.find((locale) => locale === language);
  return byLanguage ?? DEFAULT_LOCALE;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(locale: Locale, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${signed ? 's' : ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
    });
    numberFormats.set(key, format);
  }
  return format;
}

/** Integer hundredths → the locale's "12.50" (en "1,234.50", de "1.234,50", fr "1 234,50"). */
export function formatMoney(cents: number, locale: Locale, options: { signed?: boolean } = {}): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an integer amount: ${cents}`);
  return moneyFormat(locale, options.signed === true).format(cents / 100);
}

/** A wire amount ("12.50") → the locale's text; `fallback` when missing or not an amount. */
export function formatMoneyText(
  value: string | null | undefined,
  locale: Locale,
  options: { signed?: boolean; fallback?: string } = {},
): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!/^-?\d{1,8}(\.\d{1,2})?$/.test(text)) return options.fallback ?? formatMoney(0, locale);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = text.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return formatMoney(negative ? -cents : cents, locale, options);
}

/** A plain count (members, joins) in the locale's digits grouping. */
export function formatCount(value: number, locale: Locale): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: Locale, style: DateStyle): Intl.DateTimeFormat {
  const key = `${locale}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, DATE_STYLES[style]);
    dateFormats.set(key, format);
  }
  return format;
}

const DATE_STYLES = {
  /** "Nov 27, 2026" / "27 nov 2026" */
  date: { dateStyle: 'medium' },
  /** "Nov 27, 2026, 1:05 PM" / "27.11.2026, 13:05" */
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  /** "October 19, 2025" (legal pages' "last updated") */
  longDate: { dateStyle: 'long' },
  /** "Nov 27" (chart axes) */
  dayMonth: { month: 'short', day: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

/** A date (Date, ISO string or epoch ms) in the locale; `fallback` when it is not a date. */
export function formatDate(
  value: Date | string | number | null | undefined,
  locale: Locale,
  style: DateStyle = 'date',
  fallback = '',
): string {
  if (value == null || value === '') return fallback;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return fallback;
  return dateFormat(locale, style).format(date);
}

/**
 * The language a member sees: the one chosen in the app's switcher (`users.ui_locale`), else their
 * Discord locale at the last sign-in (`users.locale`) mapped by `resolveLocale`.
 */
export function userLocale(user: { uiLocale?: string | null; locale?: string | null }): Locale {
  return isLocale(user.uiLocale) ? user.uiLocale : resolveLocale(user.locale);
}

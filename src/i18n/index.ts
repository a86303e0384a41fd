import i18next, { type TFunction } from 'i18next';
import {
  DEFAULT_LOCALE,
  SUPPORTED_LOCALES,
  formatCount,
  formatMoneyText,
  resolveLocale,
  type Locale,
} from '../shared/i18n/index.ts';
import { CATALOGUES, SERVER_NAMESPACES } from './catalogues.ts';

// The server's i18next instance (decision 051): the bot's replies (`bot` namespace) and the API's
// messages (`server`), every locale loaded at start (a few kilobytes; the web app loads its own `web`
// catalogue per locale). English is the source and the fallback.

export type { Locale } from '../shared/i18n/index.ts';
export { resolveLocale, SUPPORTED_LOCALES, DEFAULT_LOCALE };

const i18n = i18next.createInstance();
void i18n.init({
  initAsync: false,
  resources: CATALOGUES,
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...SUPPORTED_LOCALES],
  ns: [...SERVER_NAMESPACES],
  defaultNS: 'bot',
  // Replies are Discord markdown or JSON, never HTML: nothing to escape.
  interpolation: { escapeValue: false },
  returnNull: false,
});
// `{{amount, coins}}`: a wire amount ("12.50") in the locale's digits ("12,50" in German).
i18n.services.formatter?.add('coins', (value: unknown, lng: string | undefined) =>
  formatMoneyText(String(value), resolveLocale(lng)),
);
// `{{n, count}}`: a whole number with the locale's grouping ("1.500" in German).
i18n.services.formatter?.add('count', (value: unknown, lng: string | undefined) =>
  formatCount(Number(value), resolveLocale(lng)),
);

// `{{wait, duration}}`: an English wait of the API's messages ("1 hour 5 minutes", "23 minutes") in the
// locale's words.
i18n.services.formatter?.add('duration', (value: unknown, lng: string | undefined) => {
  const text = String(value);
  const hours = /(\d+) hours?/.exec(text)?.[1];
  const minutes = /(\d+) minutes?/.exec(text)?.[1];
  if (hours === undefined && minutes === undefined) return text;
  const t = serverT(resolveLocale(lng));
  return [
    hours === undefined ? '' : t('time.hours', { count: Number(hours) }),
    minutes === undefined ? '' : t('time.minutes', { count: Number(minutes) }),
  ]
    .filter(Boolean)
    .join(' ');
});

/** The bot's words in `locale`. */
export function botT(locale: Locale): TFunction<'bot'> {
  return i18n.getFixedT(locale, 'bot');
}

/** The API's words in `locale`. */
export function serverT(locale: Locale): TFunction<'server'> {
  return i18n.getFixedT(locale, 'server');
}

/**
 * Discord's locales for each of ours (https://discord.com/developers/docs/reference#locales): what
 * `name_localizations` and `description_localizations` are keyed by. English is the default value.
 */
export const DISCORD_LOCALES: Record<Exclude<Locale, 'en'>, readonly string[]> = {
  es: ['es-ES', 'es-419'],
  'pt-BR': ['pt-BR'],
  fr: ['fr'],
  de: ['de'],
  tr: ['tr'],
};

/** `{ "es-ES": …, "es-419": …, "pt-BR": …, fr, de, tr }` for one bot key (a command's name or description). */
export function discordLocalizations(
  key: string,
  params: Record<string, unknown> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [locale, discordLocales] of Object.entries(DISCORD_LOCALES)) {
    const text = String(botT(locale as Locale)(key, params));
    for (const discordLocale of discordLocales) out[discordLocale] = text;
  }
  return out;
}

import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import { DEFAULT_LOCALE, isLocale, resolveLocale, type Locale } from '@shared/i18n/index.ts';
import en from '@shared/i18n/locales/en/web.json';

// The web app's i18next (decision 050). English, the source, is in the entry bundle; any other locale's
// catalogue is its own chunk, loaded before the first render (main.tsx) or when the member switches, so a
// page never carries all six.

type Catalogue = Record<string, unknown>;

/** The other locales' `web` catalogues, one chunk each (Vite splits every dynamic import). */
const catalogues = import.meta.glob<Catalogue>(
  ['../../../src/shared/i18n/locales/*/web.json', '!../../../src/shared/i18n/locales/en/web.json'],
  {
    import: 'default',
  },
);

export const i18n: I18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  ns: ['web'],
  defaultNS: 'web',
  resources: { en: { web: en } },
  // Resources are in memory (or loaded by loadLocale before use): init and changeLanguage finish at once.
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  react: { useSuspense: false },
});

/** Makes `locale`'s catalogue available (a no-op for English and for one already loaded). */
export async function loadLocale(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'web')) return;
  const load = catalogues[`../../../src/shared/i18n/locales/${locale}/web.json`];
  if (!load) return;
  i18n.addResourceBundle(locale, 'web', await load());
}

/**
 * Switches the app to `locale` (loading its catalogue first); the document's `lang` follows. Resolves
 * once every `useTranslation` caller re-renders in the new language.
 */
export async function switchLocale(locale: Locale): Promise<void> {
  await loadLocale(locale);
  await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** The language the app renders in now. */
export function currentLocale(): Locale {
  const language = i18n.language;
  return isLocale(language) ? language : resolveLocale(language);
}

/** The current locale as React state: components that format numbers or dates re-render on a switch. */
export function useLocale(): Locale {
  const { i18n: instance } = useTranslation();
  return isLocale(instance.language) ? instance.language : DEFAULT_LOCALE;
}

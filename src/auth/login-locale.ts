import { acceptLanguageLocale } from '../i18n/accept-language.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../shared/i18n/index.ts';

// The signed-out visitor's language (decision 061): the login page, Terms and Privacy are shown in it.
// A browser that has been signed in here carries the member's language in a cookie (set with every
// signed-in page and by the switcher), so signing out does not drop the page back to English; anyone
// else gets the best of our six for their Accept-Language, English otherwise.

/** The member's app language, remembered for the signed-out pages (not a secret: a language tag). */
export const LOCALE_COOKIE = 'coinsync.locale';
const LOCALE_COOKIE_MAX_AGE_MS = 365 * 24 * 3600 * 1000;

/** The prerendered login page of `locale` in dist/web (scripts/build/pages.ts writes one per locale). */
export function loginPageFile(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? 'login.html' : `login.${locale}.html`;
}

/** The locale named by our cookie in a Cookie header, or null. */
export function cookieLocale(cookieHeader: string | undefined): Locale | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== LOCALE_COOKIE) continue;
    let value = part.slice(eq + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      return null;
    }
    return isLocale(value) ? value : null;
  }
  return null;
}

/** The language for a visitor without a session: the remembered one, else Accept-Language's best. */
export function visitorLocale(headers: { cookie?: string; 'accept-language'?: string }): Locale {
  return cookieLocale(headers.cookie) ?? acceptLanguageLocale(headers['accept-language']);
}

/** Cookie options for LOCALE_COOKIE: the whole site, a year, readable by the server only. */
export function localeCookieOptions(production: boolean) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: production,
    maxAge: LOCALE_COOKIE_MAX_AGE_MS,
  };
}

import type { IncomingMessage } from 'node:http';
import type { DataStore } from '../db/engine.ts';
import { usersRepo } from '../users/users-repo.ts';
import { DEFAULT_LOCALE, resolveLocale, userLocale, type Locale } from '../shared/i18n/index.ts';

/**
 * The language stored for a member (the switcher's choice, else their Discord locale at sign-in), or
 * null when the user is unknown or nothing is stored: what DMs and the API's messages use.
 */
export async function storedLocaleOf(store: Pick<DataStore, 'read'>, userId: string): Promise<Locale | null> {
  const user = await usersRepo(store.read).findById(userId);
  if (!user) return null;
  const stored = user as { uiLocale?: string | null; locale?: string | null };
  return stored.uiLocale || stored.locale ? userLocale(stored) : null;
}

/** The best of our locales for an `Accept-Language` header ("de-DE,de;q=0.9,en;q=0.8" → de); English else. */
export function acceptLanguageLocale(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q.slice(2)), order };
    })
    .filter((r) => r.tag !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  for (const { tag } of ranked) {
    if (tag === '*' || /^en\b/i.test(tag)) return DEFAULT_LOCALE;
    const locale = resolveLocale(tag);
    if (locale !== DEFAULT_LOCALE) return locale;
  }
  return DEFAULT_LOCALE;
}

/** The signed-in member's stored language (the API's answers use it before Accept-Language), or null. */
export async function requestStoredLocale(
  store: Pick<DataStore, 'read'>,
  req: IncomingMessage & { user?: { id?: string } },
): Promise<Locale | null> {
  const userId = req.user?.id;
  return userId ? storedLocaleOf(store, userId) : null;
}

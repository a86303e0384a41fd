import type { IncomingMessage } from 'node:http';
import type { DataStore } from '../db/engine.ts';
import { usersRepo } from '../users/users-repo.ts';
import { userLocale, type Locale } from '../shared/i18n/index.ts';

export { acceptLanguageLocale } from './accept-language.ts';

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

/** The signed-in member's stored language (the API's answers use it before Accept-Language), or null. */
export async function requestStoredLocale(
  store: Pick<DataStore, 'read'>,
  req: IncomingMessage & { user?: { id?: string } },
): Promise<Locale | null> {
  const userId = req.user?.id;
  return userId ? storedLocaleOf(store, userId) : null;
}

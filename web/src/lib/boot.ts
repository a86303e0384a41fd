import type { QueryClient } from '@tanstack/react-query';
import type { AppBoot } from '@shared/api-types.ts';
import { authKeys } from './query-keys.ts';

/**
 * The answers the server inlined into index.html for this request (src/auth/spa-pages.ts): the session's
 * user (null when signed out), the public config and, signed in, the page's first data. Null when the
 * page carries none (Vite's dev server).
 */
export function readBoot(): AppBoot | null {
  const text = document.getElementById('app-boot')?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as AppBoot;
  } catch {
    return null;
  }
}

/**
 * Puts the boot data into the query cache, as if the app had asked for it. The server's render
 * (web/src/entry-server.tsx) and the browser's hydration seed the same data, so both render the same.
 */
export function seedBoot(queryClient: QueryClient, boot: AppBoot): void {
  queryClient.setQueryData(authKeys.user(), boot.user);
  queryClient.setQueryData(authKeys.config(), boot.config);
  for (const { key, data } of boot.queries ?? []) queryClient.setQueryData(key, data);
}

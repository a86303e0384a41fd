import type { AppBoot } from '@shared/api-types.ts';

/**
 * The answers the server inlined into index.html for this request (src/auth/spa-pages.ts): the session's
 * user (null when signed out) and the public config. Null when the page carries none (Vite's dev server).
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

import { useEffect, useSyncExternalStore } from 'react';
import { replayEarlyInput } from './early-input.ts';

// React hydrates a server-rendered page in passes: it commits what lies outside Suspense boundaries first
// and hydrates each boundary in a later pass, at low priority (the server's HTML is already on screen).
// The routed app and the page each sit in a boundary (app.tsx, app-shell.tsx), so the shell's effects run
// while the page still holds the server's HTML. A page component mounted then reads the cache as it is
// at that moment: a balance changed in between (a pending claim resumed, a live event, a payment synced)
// renders text that differs from the server's, and React reports a hydration mismatch (error #418) and
// throws the page's HTML away. Whatever changes the cache on load waits for this mark instead.

let hydrated = false;
const listeners = new Set<() => void>();

function markPageHydrated(): void {
  if (hydrated) return;
  hydrated = true;
  // The browser tests wait for this before they click (tests/e2e/support.ts): a button on a page that has
  // not hydrated yet does nothing.
  document.documentElement.dataset.interactive = '';
  for (const listener of listeners) listener();
  // What the member typed or clicked before the page hydrated reaches the page now (lib/early-input.ts).
  replayEarlyInput();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Rendered beside each routed page (routed-app.tsx), the signed-out login page and a page's error panel:
 * its effect runs once the page itself has hydrated (or, rendered by the browser alone, mounted).
 */
export function PageHydratedMark(): null {
  useEffect(markPageHydrated, []);
  return null;
}

/** False until the first page has hydrated (always false on the server), then true for the tab's life. */
export function usePageHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => hydrated,
    () => false,
  );
}

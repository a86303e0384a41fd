import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};

/**
 * False while React hydrates a server-rendered page (and on the server), true from the render after.
 * For what only the browser knows (its time zone, its storage): render the server's answer first so
 * hydration matches, then the browser's. A page rendered by the browser alone is true at once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

import { lazy, type ComponentType } from 'react';

// After a deploy, open tabs still reference the old build's chunk names, which now answer 404. The
// first such failure reloads the page (the new index.html names the new chunks); if loading fails
// again within a minute, the error reaches the route's error boundary instead of looping.
const RELOAD_KEY = 'coinsync:chunk-reload-at';
const RELOAD_WINDOW_MS = 60_000;

export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i.test(
    `${err.name} ${err.message}`,
  );
}

function reloadedRecently(): boolean {
  try {
    const at = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    return Date.now() - at < RELOAD_WINDOW_MS;
  } catch {
    return true; // no storage: never risk a reload loop
  }
}

/** Loads a chunk; a chunk-load failure reloads the page once, then rejects. */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isChunkLoadError(err) && !reloadedRecently()) {
      try {
        sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
      } catch {
        // unreachable: reloadedRecently() returned true without storage
      }
      window.location.reload();
      return new Promise<T>(() => {}); // the page is going away
    }
    throw err;
  }
}

const loadedModules = new WeakMap<() => Promise<unknown>, unknown>();

/**
 * Loads a lazily loaded module ahead of rendering (main.tsx at boot: the router and the current page).
 * A lazyPage with the same loader then renders it in the same pass, without showing its fallback first.
 */
export async function preloadPage<T>(load: () => Promise<T>): Promise<T> {
  const module = await loadChunk(load);
  loadedModules.set(load, module);
  return module;
}

/** React.lazy with the reload-once behaviour for a page module that default-exports its component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<P extends ComponentType<any>>(load: () => Promise<{ default: P }>) {
  return lazy(() => {
    const module = loadedModules.get(load) as { default: P } | undefined;
    if (!module) return preloadPage(load);
    // React.lazy reads a thenable that settles synchronously as already loaded: no suspense, no fallback.
    const settled = { then: (resolve: (value: { default: P }) => void) => resolve(module) };
    return settled as unknown as Promise<{ default: P }>;
  });
}

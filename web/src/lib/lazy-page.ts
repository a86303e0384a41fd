import { lazy, type ComponentType } from 'react';

// After a deploy, open tabs still reference the old build's chunk names, which now answer 404. The
// first such failure reloads the page (the new index.html names the new chunks); if loading fails
// again within a minute, the error reaches the route's error boundary instead of looping.
// Offline, or while the server restarts, a reload would swap the app for the browser's own error page:
// so a reload happens only once the origin answers (originAnswers); until then the failure reaches the
// route's error boundary as an OfflineChunkError, which waits for the connection and then reloads.
const RELOAD_KEY = 'coinsync:chunk-reload-at';
const RELOAD_WINDOW_MS = 60_000;
/** How long the origin probe waits for an answer before calling the origin unreachable. */
const PROBE_TIMEOUT_MS = 5_000;

export function isChunkLoadError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i.test(
    `${err.name} ${err.message}`,
  );
}

/** A page's code could not be downloaded and the origin does not answer (offline, or restarting). */
export class OfflineChunkError extends Error {
  override name = 'ChunkLoadError';
  readonly offline = true;
  constructor(cause: unknown) {
    super(`Failed to fetch dynamically imported module while offline: ${String(cause)}`, { cause });
  }
}

export function isOfflineChunkError(err: unknown): err is OfflineChunkError {
  return err instanceof OfflineChunkError;
}

/**
 * True when our server answers and is serving (GET /api/health 200, not the start-up responder's
 * `starting`): a reload would then get a real page. False offline, on a proxy's 502, while starting.
 */
export async function originAnswers(): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal: controller.signal });
    if (!res.ok) return false;
    const body = (await res.json().catch(() => null)) as { starting?: boolean } | null;
    return body?.starting !== true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function reloadedRecently(): boolean {
  try {
    const at = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    return Date.now() - at < RELOAD_WINDOW_MS;
  } catch {
    return true; // no storage: never risk a reload loop
  }
}

/**
 * Loads a chunk; a chunk-load failure reloads the page once (if the origin answers), then rejects. While
 * the origin does not answer it rejects with an OfflineChunkError and never reloads.
 */
export async function loadChunk<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (isChunkLoadError(err) && !(await originAnswers())) throw new OfflineChunkError(err);
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

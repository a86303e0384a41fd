import { lazy, Suspense } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { toaster } from './toaster-store.ts';

export { toaster } from './toaster-store.ts';

export interface ToastInput {
  title: string;
  description?: string;
  /** destructive: red, for failures; success: green, for the spec's success toasts; default: neutral. */
  variant?: 'default' | 'destructive' | 'success';
  /** A button in the toast (e.g. "My Joins"); clicking it runs `onClick` and closes the toast. */
  action?: { label: string; onClick: () => void };
}

/** Shows a toast, replacing the one on screen (only one is ever visible). */
export function toast({ title, description, variant = 'default', action }: ToastInput): string {
  // With max 1 and a long remove delay, a dismissed toast would otherwise hold the only slot
  // and queue every later toast, so clear the store before showing the next one.
  toaster.remove();
  return toaster.create({
    title,
    description,
    type: variant === 'destructive' ? 'error' : variant === 'success' ? 'success' : 'info',
    closable: true,
    ...(action ? { action } : {}),
  });
}

// The toast UI (zag's toast machines, ~5 kB gzip) renders nothing until a toast exists, so it loads in
// its own chunk after first render. The store above is static: a toast created before the chunk
// arrives is shown once it mounts (the group machine reads the store's visible toasts on start).
const ToasterView = lazy(() => import('./toaster-view.tsx'));

export function Toaster() {
  // Not in a server-rendered page's first pass: the server has no toasts and does not load the chunk.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <Suspense fallback={null}>
      <ToasterView />
    </Suspense>
  );
}

import { useSyncExternalStore } from 'react';
import { optionalPart } from '../components/optional-part.tsx';
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

// The toast UI (zag's toast machines, ~8 kB gzip) renders nothing until a toast exists, so its chunk loads
// when the first toast is created, not on every page load: fetched and started right after hydration it
// was one more long task inside the window Lighthouse measures (issue 32 item 5). The store above is
// static: the toast created before the chunk arrives is shown once the view mounts (the group machine
// reads the store's toasts on start). Once mounted, the view stays.
// Offline, a failed download shows no toast until the browser is back online (optional-part.tsx).
const ToasterView = optionalPart(() => import('./toaster-view.tsx'));

let toastSeen = false;
// The store tells its subscribers of a new toast before adding it to its list (zag's toast store), so the
// message itself says so: anything published that is not a dismissal is a toast.
const subscribeToToasts = (onChange: () => void) =>
  toaster.subscribe((message?: { dismiss?: boolean }) => {
    if (!message?.dismiss) toastSeen = true;
    onChange();
  });
const hasHadToast = () => (toastSeen ||= toaster.getCount() > 0);

export function Toaster() {
  // Not in a server-rendered page's first pass: the server has no toasts and does not load the chunk.
  const needed = useSyncExternalStore(subscribeToToasts, hasHadToast, () => false);
  if (!needed) return null;
  return <ToasterView fallback={null} />;
}

import { lazy, Suspense, useState, type ComponentProps } from 'react';

// Chakra's dialog machine (zag dialog, focus trap, dismissable layer, portal: ~29 kB gzip with its helpers)
// is not needed to paint the Dashboard: the Promote confirmation comes in the lazily loaded dialogs' chunk
// (campaign-dialogs.ts), fetched when the pointer or focus reaches a Promote button, and mounts the first
// time it opens; it stays mounted after, so it can animate closed. Issue 32 item 5.
const loadPromoteConfirm = () => import('./campaign-dialogs.ts');
const PromoteConfirmDialog = lazy(() =>
  loadPromoteConfirm().then((module) => ({ default: module.PromoteConfirmDialog })),
);

export const preloadPromoteConfirm = (): void => void loadPromoteConfirm().catch(() => undefined);

type Props = ComponentProps<typeof PromoteConfirmDialog>;

/** The Promote confirmation (promote-confirm-dialog.tsx), loaded and mounted on its first opening. */
export function LazyPromoteConfirmDialog(props: Props) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <PromoteConfirmDialog {...props} />
    </Suspense>
  );
}

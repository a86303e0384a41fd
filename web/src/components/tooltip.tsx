import type { Tooltip as ChakraTooltip } from '@chakra-ui/react';
import { useSyncExternalStore, type ReactNode } from 'react';
import { optionalPart } from './optional-part.tsx';

export interface TooltipProps extends Omit<ChakraTooltip.RootProps, 'children'> {
  content: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}

// The tooltip machinery (zag tooltip, popper, floating-ui; ~15 kB gzip) is not needed to paint the page nor
// before the member points at something, so it loads in its own chunk on the page's first pointer, touch or
// key input; until then the child renders as is. (Loaded right after hydration, its download and the
// re-render of every tooltip's child were a long task in the window Lighthouse measures: issue 32 item 5.)
// A server-rendered page renders the plain child on the server and while hydrating, and the tooltip after:
// a lazy part left to hydrate later would be a Suspense boundary still holding the server's HTML while the
// rest of the page runs, and an update reaching it before its chunk arrived (the balance in the header,
// changed by a claim or a live event right after load) made React report a hydration mismatch (error #418).
export const loadTooltipImpl = () => import('./tooltip-impl.tsx');
// Offline, a failed download leaves the plain child (optional-part.tsx), never the route's error panel.
const TooltipImpl = optionalPart(loadTooltipImpl);

const INPUT_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'focusin'] as const;
let interacted = false;
const waiting = new Set<() => void>();

function onFirstInput() {
  interacted = true;
  for (const type of INPUT_EVENTS) window.removeEventListener(type, onFirstInput, true);
  for (const notify of waiting) notify();
  waiting.clear();
}

function subscribeToFirstInput(onChange: () => void): () => void {
  if (interacted) return () => {};
  if (waiting.size === 0)
    for (const type of INPUT_EVENTS)
      window.addEventListener(type, onFirstInput, { capture: true, passive: true });
  waiting.add(onChange);
  return () => waiting.delete(onChange);
}

/** True once the page has had any pointer, touch or key input (false on the server and while hydrating). */
function useHadInput(): boolean {
  return useSyncExternalStore(
    subscribeToFirstInput,
    () => interacted,
    () => false,
  );
}

/** Tooltip with the product's 700 ms open delay (docs/spec/product-spec.md §9). The child must accept a ref. */
export function Tooltip({ disabled, ...props }: TooltipProps) {
  const active = useHadInput();
  if (disabled || !active) return <>{props.children}</>;
  return <TooltipImpl {...props} fallback={props.children} />;
}

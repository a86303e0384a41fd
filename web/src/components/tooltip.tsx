import type { Tooltip as ChakraTooltip } from '@chakra-ui/react';
import { Suspense, type ReactNode } from 'react';
import { lazyPage } from '../lib/lazy-page.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

export interface TooltipProps extends Omit<ChakraTooltip.RootProps, 'children'> {
  content: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}

// The tooltip machinery (zag tooltip, popper, floating-ui) is not needed to paint the page, so it loads
// in its own chunk right after first render; until then the child renders as is. A server-rendered page
// renders the plain child on the server and while hydrating, and the tooltip after: a lazy part left to
// hydrate later would be a Suspense boundary still holding the server's HTML while the rest of the page
// runs, and an update reaching it before its chunk arrived (the balance in the header, changed by a claim
// or a live event right after load) made React report a hydration mismatch (error #418).
export const loadTooltipImpl = () => import('./tooltip-impl.tsx');
const TooltipImpl = lazyPage(loadTooltipImpl);

/** Tooltip with the product's 700 ms open delay (docs/spec/product-spec.md §9). The child must accept a ref. */
export function Tooltip({ disabled, ...props }: TooltipProps) {
  const hydrated = useHydrated();
  if (disabled || !hydrated) return <>{props.children}</>;
  return (
    <Suspense fallback={props.children}>
      <TooltipImpl {...props} />
    </Suspense>
  );
}

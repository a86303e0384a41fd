import type { Tooltip as ChakraTooltip } from '@chakra-ui/react';
import { Suspense, type ReactNode } from 'react';
import { lazyPage } from '../lib/lazy-page.ts';

export interface TooltipProps extends Omit<ChakraTooltip.RootProps, 'children'> {
  content: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}

// The tooltip machinery (zag tooltip, popper, floating-ui) is not needed to paint the page, so it loads
// in its own chunk right after first render; until then the child renders as is. The server loads it
// before rendering (web/src/entry-server.tsx), so a server-rendered tooltip hydrates once the chunk is in.
export const loadTooltipImpl = () => import('./tooltip-impl.tsx');
const TooltipImpl = lazyPage(loadTooltipImpl);

/** Tooltip with the product's 700 ms open delay (spec §9). The child must accept a ref. */
export function Tooltip({ disabled, ...props }: TooltipProps) {
  if (disabled) return <>{props.children}</>;
  return (
    <Suspense fallback={props.children}>
      <TooltipImpl {...props} />
    </Suspense>
  );
}

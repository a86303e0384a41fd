import type { Tooltip as ChakraTooltip } from '@chakra-ui/react';
import { lazy, Suspense, type ReactNode } from 'react';

export interface TooltipProps extends Omit<ChakraTooltip.RootProps, 'children'> {
  content: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}

// The tooltip machinery (zag tooltip, popper, floating-ui) is not needed to paint the page, so it loads
// in its own chunk right after first render; until then the child renders as is.
const TooltipImpl = lazy(() => import('./tooltip-impl.tsx'));

/** Tooltip with the product's 700 ms open delay (spec §9). The child must accept a ref. */
export function Tooltip({ disabled, ...props }: TooltipProps) {
  if (disabled) return <>{props.children}</>;
  return (
    <Suspense fallback={props.children}>
      <TooltipImpl {...props} />
    </Suspense>
  );
}

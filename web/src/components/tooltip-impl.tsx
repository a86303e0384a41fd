import { Portal, Tooltip as ChakraTooltip } from '@chakra-ui/react';
import type { TooltipProps } from './tooltip.tsx';

/** The Chakra tooltip behind `Tooltip`, in its own chunk (zag tooltip + floating-ui, ~12 kB gzip). */
export default function TooltipImpl({ content, children, disabled: _disabled, ...rest }: TooltipProps) {
  return (
    <ChakraTooltip.Root openDelay={700} {...rest}>
      <ChakraTooltip.Trigger asChild>{children}</ChakraTooltip.Trigger>
      <Portal>
        <ChakraTooltip.Positioner>
          <ChakraTooltip.Content>{content}</ChakraTooltip.Content>
        </ChakraTooltip.Positioner>
      </Portal>
    </ChakraTooltip.Root>
  );
}

import { Button, Dialog, Portal, type ButtonProps } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';

/**
 * The frame of a dialog that shows something and closes (no form action of its own in the footer): open
 * while mounted, a title, the body, one "Close" button. `fullOnPhone`: the whole screen on a phone, the
 * body scrolling inside (long forms); otherwise a centred card.
 */
export function DialogShell({
  title,
  closeLabel,
  onClose,
  fullOnPhone = false,
  children,
}: {
  title: ReactNode;
  closeLabel: string;
  onClose: () => void;
  fullOnPhone?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog.Root
      open
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
      placement="center"
      size={{ base: fullOnPhone ? 'full' : 'xs', sm: 'lg' }}
      scrollBehavior={fullOnPhone ? 'inside' : undefined}
    >
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" backdropFilter="blur(2px)" />
        <Dialog.Positioner px={fullOnPhone ? { base: '0', sm: '4' } : '4'}>
          <Dialog.Content
            bg="bg.panel"
            borderWidth="1px"
            borderColor="border.emphasized"
            borderRadius={fullOnPhone ? { base: '0', sm: '2xl' } : '2xl'}
          >
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline">{closeLabel}</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A card's small button that opens its dialog; the dialog is mounted only while open. */
export function DialogButton({
  children,
  buttonProps,
  dialog,
}: {
  children: ReactNode;
  /** At least the aria-label that names what it opens (e.g. "Notifications of <campaign>"). */
  buttonProps: ButtonProps & { 'aria-label': string } & { [data: `data-${string}`]: string };
  dialog: (onClose: () => void) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="subtle" colorPalette="gray" onClick={() => setOpen(true)} {...buttonProps}>
        {children}
      </Button>
      {open ? dialog(() => setOpen(false)) : null}
    </>
  );
}

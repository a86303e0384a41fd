import { Button, Dialog, Portal, type ButtonProps } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode } from 'react';

/** The look every dialog shares: the dimmed backdrop and the bordered card (the whole screen on a phone with `fullOnPhone`). */
function DialogCard({ fullOnPhone = false, children }: { fullOnPhone?: boolean; children: ReactNode }) {
  return (
    <Portal>
      <Dialog.Backdrop bg="blackAlpha.700" backdropFilter="blur(2px)" />
      <Dialog.Positioner px={fullOnPhone ? { base: '0', sm: '4' } : '4'}>
        <Dialog.Content
          bg="bg.panel"
          borderWidth="1px"
          borderColor="border.emphasized"
          borderRadius={fullOnPhone ? { base: '0', sm: '2xl' } : '2xl'}
        >
          {children}
        </Dialog.Content>
      </Dialog.Positioner>
    </Portal>
  );
}

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
      <DialogCard fullOnPhone={fullOnPhone}>
        <Dialog.Header>
          <Dialog.Title>{title}</Dialog.Title>
        </Dialog.Header>
        <Dialog.Body>{children}</Dialog.Body>
        <Dialog.Footer>
          <Dialog.ActionTrigger asChild>
            <Button variant="outline">{closeLabel}</Button>
          </Dialog.ActionTrigger>
        </Dialog.Footer>
      </DialogCard>
    </Dialog.Root>
  );
}

/** An action dialog's footer: the button that backs out, and the one that does the action. */
function DialogActions({
  cancelLabel,
  confirmLabel,
  confirm,
  pending,
}: {
  cancelLabel: string;
  confirmLabel: ReactNode;
  confirm: ButtonProps;
  pending: boolean;
}) {
  return (
    <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
      <Dialog.ActionTrigger asChild>
        <Button variant="outline" colorPalette="gray" disabled={pending}>
          {cancelLabel}
        </Button>
      </Dialog.ActionTrigger>
      <Button loading={pending} {...confirm}>
        {confirmLabel}
      </Button>
    </Dialog.Footer>
  );
}

/**
 * A centred card that asks for one action: a title, the body, a back-out button and the action's button
 * (`confirm`: its palette, `onClick` or `type: 'submit'`, `disabled`, `loadingText`). While `pending`
 * nothing closes it and the action's button spins. With `form`, header, body and footer sit in a form
 * (the action's button submits it). With `trigger`, the dialog owns the button that opens it.
 */
export function ActionDialog({
  title,
  open = true,
  onClose,
  pending,
  alert = false,
  trigger,
  initialFocusEl,
  form,
  children,
  ...actions
}: {
  title: ReactNode;
  open?: boolean;
  onClose: () => void;
  pending: boolean;
  /** role="alertdialog": the action cannot be undone or spends coins. */
  alert?: boolean;
  trigger?: { button: ReactNode; onOpen: () => void };
  initialFocusEl?: () => HTMLElement | null;
  form?: { onSubmit: (e: FormEvent) => void; 'aria-label'?: string };
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: ReactNode;
  confirm: ButtonProps;
}) {
  const content = (
    <>
      <Dialog.Header>
        <Dialog.Title>{title}</Dialog.Title>
      </Dialog.Header>
      <Dialog.Body>{children}</Dialog.Body>
      <DialogActions pending={pending} {...actions} />
    </>
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (e.open) trigger?.onOpen();
        else if (!pending) onClose();
      }}
      role={alert ? 'alertdialog' : 'dialog'}
      placement="center"
      initialFocusEl={initialFocusEl}
      size={{ base: 'xs', sm: 'md' }}
    >
      {trigger ? <Dialog.Trigger asChild>{trigger.button}</Dialog.Trigger> : null}
      <DialogCard>
        {form ? (
          <form onSubmit={form.onSubmit} noValidate aria-label={form['aria-label']}>
            {content}
          </form>
        ) : (
          content
        )}
      </DialogCard>
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

import { Toaster as ChakraToaster, Portal, Stack, Toast, createToaster } from '@chakra-ui/react';

// Spec §9: one toast at a time, 5 s display, removal delay 1000000 ms, hotkey F8.
export const toaster = createToaster({
  placement: 'bottom-end',
  max: 1,
  duration: 5000,
  removeDelay: 1_000_000,
  hotkey: ['F8'],
  pauseOnPageIdle: true,
});

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

/** Shows a toast, replacing the one on screen (only one is ever visible). */
export function toast({ title, description, variant = 'default' }: ToastInput): string {
  // With max 1 and a long remove delay, a dismissed toast would otherwise hold the only slot
  // and queue every later toast, so clear the store before showing the next one.
  toaster.remove();
  return toaster.create({
    title,
    description,
    type: variant === 'destructive' ? 'error' : 'info',
    closable: true,
  });
}

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(t) => (
          <Toast.Root
            width={{ md: 'sm' }}
            borderWidth="1px"
            borderColor={t.type === 'error' ? 'red.500' : 'border.emphasized'}
          >
            {t.type === 'error' && <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {t.title && <Toast.Title>{t.title}</Toast.Title>}
              {t.description && <Toast.Description>{t.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger aria-label="Close notification" />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}

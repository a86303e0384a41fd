import { Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useDeleteAccount } from './use-account-actions.ts';
import { useTranslation } from 'react-i18next';

const ERROR_ID = 'delete-account-confirm-error';

/** Delete my account: the user types their username; errors show on the field, which takes focus. */
// eslint-disable-next-line max-lines-per-function -- a dialog whose texts move to t() in parallel (wave3s12-webi18n); split after that merge (notes-funcs.md)
export function DeleteAccountDialog({ username }: { username: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const remove = useDeleteAccount({
    onInvalid: (message) => {
      setError(message);
      inputRef.current?.focus();
    },
  });

  // The confirm button stays disabled until the username is typed exactly.
  const confirmed = typed.trim() === username;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!confirmed) {
      setError(t('deleteAccount.typeToConfirm', { username }));
      inputRef.current?.focus();
      return;
    }
    setError(null);
    remove.mutate(typed.trim());
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (remove.isPending) return;
        setOpen(e.open);
        if (!e.open) {
          setTyped('');
          setError(null);
        }
      }}
      role="alertdialog"
      placement="center"
      initialFocusEl={() => inputRef.current}
      size={{ base: 'xs', sm: 'md' }}
    >
      <Dialog.Trigger asChild>
        <Button colorPalette="red" variant="outline" alignSelf="flex-start">
          {t('deleteAccount.delete')}
        </Button>
      </Dialog.Trigger>
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" backdropFilter="blur(2px)" />
        <Dialog.Positioner px="4">
          <Dialog.Content
            bg="bg.panel"
            borderWidth="1px"
            borderColor="border.emphasized"
            borderRadius="2xl"
            asChild
          >
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t('deleteAccount.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted" textStyle="sm">
                    {t('deleteAccount.text')}
                  </Text>
                  <Field.Root invalid={error !== null} required>
                    <Field.Label>{t('deleteAccount.label', { username })}</Field.Label>
                    <Input
                      ref={inputRef}
                      value={typed}
                      autoComplete="off"
                      // Ark's Field links only helper text; the error is linked here so it is read out.
                      aria-describedby={error ? ERROR_ID : undefined}
                      onChange={(e) => {
                        setTyped(e.target.value);
                        if (error) setError(null);
                      }}
                    />
                    {error ? <Field.ErrorText id={ERROR_ID}>{error}</Field.ErrorText> : null}
                  </Field.Root>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" colorPalette="gray" disabled={remove.isPending}>
                    {t('deleteAccount.keep')}
                  </Button>
                </Dialog.ActionTrigger>
                <Button
                  type="submit"
                  colorPalette="red"
                  disabled={!confirmed}
                  loading={remove.isPending}
                  loadingText={t('deleteAccount.deleting')}
                >
                  {t('deleteAccount.delete')}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

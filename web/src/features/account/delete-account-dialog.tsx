import { Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useDeleteAccount } from './use-account-actions.ts';

const ERROR_ID = 'delete-account-confirm-error';

/** Delete my account: the user types their username; errors show on the field, which takes focus. */
export function DeleteAccountDialog({ username }: { username: string }) {
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
      setError(`Type ${username} to confirm`);
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
          Delete my account
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
                <Dialog.Title>Delete your account?</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted" textStyle="sm">
                    Your profile is anonymised, your active campaigns end without a refund, your remaining
                    coins are forfeited and you are signed out on every device. Unpaid penalties (a negative
                    balance) stay with your Discord account if you sign up again. Transaction records are kept
                    without your name, as the Privacy Policy explains. This cannot be undone.
                  </Text>
                  <Field.Root invalid={error !== null} required>
                    <Field.Label>Type your username ({username}) to confirm</Field.Label>
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
                    Keep my account
                  </Button>
                </Dialog.ActionTrigger>
                <Button
                  type="submit"
                  colorPalette="red"
                  disabled={!confirmed}
                  loading={remove.isPending}
                  loadingText="Deleting..."
                >
                  Delete my account
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

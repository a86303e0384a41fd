import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../components/dialog-shell.tsx';
import { useDeleteAccount } from './use-account-actions.ts';

const ERROR_ID = 'delete-account-confirm-error';

/** Delete my account: the user types their username; errors show on the field, which takes focus. */
export function DeleteAccountDialog({ username }: { username: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const confirmation = useUsernameConfirmation(username);
  const { typed, confirmed, inputRef, showError, reset } = confirmation;
  const remove = useDeleteAccount({ onInvalid: showError });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!confirmed) return showError(t('deleteAccount.typeToConfirm', { username }));
    showError(null);
    remove.mutate(typed.trim());
  };

  return (
    <ActionDialog
      title={t('deleteAccount.title')}
      open={open}
      onClose={() => {
        setOpen(false);
        reset();
      }}
      pending={remove.isPending}
      alert
      trigger={{
        onOpen: () => setOpen(true),
        button: (
          <Button colorPalette="red" variant="outline" alignSelf="flex-start">
            {t('deleteAccount.delete')}
          </Button>
        ),
      }}
      initialFocusEl={() => inputRef.current}
      form={{ onSubmit: submit }}
      cancelLabel={t('deleteAccount.keep')}
      confirmLabel={t('deleteAccount.delete')}
      // The confirm button stays disabled until the username is typed exactly.
      confirm={{
        type: 'submit',
        colorPalette: 'red',
        disabled: !confirmed,
        loadingText: t('deleteAccount.deleting'),
      }}
    >
      <Stack gap="4">
        <Text color="fg.muted" textStyle="sm">
          {t('deleteAccount.text')}
        </Text>
        <UsernameField username={username} confirmation={confirmation} />
      </Stack>
    </ActionDialog>
  );
}

/** What the user typed against their username, and the error shown on the field (which takes focus). */
function useUsernameConfirmation(username: string) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  return {
    typed,
    error,
    inputRef,
    confirmed: typed.trim() === username,
    type: (value: string) => {
      setTyped(value);
      setError(null);
    },
    showError: (message: string | null) => {
      setError(message);
      if (message !== null) inputRef.current?.focus();
    },
    reset: () => {
      setTyped('');
      setError(null);
    },
  };
}

function UsernameField({
  username,
  confirmation: { typed, error, inputRef, type },
}: {
  username: string;
  confirmation: ReturnType<typeof useUsernameConfirmation>;
}) {
  const { t } = useTranslation();
  return (
    <Field.Root invalid={error !== null} required>
      <Field.Label>{t('deleteAccount.label', { username })}</Field.Label>
      <Input
        ref={inputRef}
        value={typed}
        autoComplete="off"
        // Ark's Field links only helper text; the error is linked here so it is read out.
        aria-describedby={error ? ERROR_ID : undefined}
        onChange={(e) => type(e.target.value)}
      />
      {error ? <Field.ErrorText id={ERROR_ID}>{error}</Field.ErrorText> : null}
    </Field.Root>
  );
}

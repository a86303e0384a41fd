import { Field, Input } from '@chakra-ui/react';
import { describedBy, errorId, helperId } from '../../lib/use-field-errors.ts';
import { useTranslation } from 'react-i18next';

// Fields shared by the three submit forms. Labels are real <label>s (Field.Label) for accessibility.
// An `error` marks the field invalid (aria-invalid) and is linked to it with aria-describedby (Ark's
// Field links only its helper text, so the ids are set here).

interface FieldProps {
  id: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? <Field.ErrorText id={errorId(id)}>{error}</Field.ErrorText> : null;
}

export function ServerNameField({ value, onChange, id, error }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>{t('submit.fields.serverName')}</Field.Label>
      <Input
        id={id}
        name="name"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={t('submit.fields.serverNamePlaceholder')}
        maxLength={100}
        autoComplete="off"
        bg="bg.subtle"
        aria-describedby={describedBy(id, { error })}
      />
      <FieldError id={id} error={error} />
    </Field.Root>
  );
}

export function InviteLinkField({ value, onChange, id, error }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>{t('submit.fields.inviteLink')}</Field.Label>
      <Input
        id={id}
        name="inviteLink"
        type="url"
        inputMode="url"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="https://discord.gg/your-invite"
        autoComplete="off"
        bg="bg.subtle"
        aria-describedby={describedBy(id, { error, helper: true })}
      />
      <FieldError id={id} error={error} />
      <Field.HelperText id={helperId(id)} color="fg.subtle">
        {t('submit.fields.inviteHelper')}
      </Field.HelperText>
    </Field.Root>
  );
}

export function WholeNumberField({
  id,
  label,
  value,
  onChange,
  helper,
  name,
  error,
}: FieldProps & { label: string; helper?: string; name: string }) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label htmlFor={id}>{label}</Field.Label>
      <Input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        step={1}
        min={3}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="3"
        bg="bg.subtle"
        aria-describedby={describedBy(id, { error, helper: Boolean(helper) })}
      />
      <FieldError id={id} error={error} />
      {helper ? (
        <Field.HelperText id={helperId(id)} color="fg.subtle">
          {helper}
        </Field.HelperText>
      ) : null}
    </Field.Root>
  );
}

import { Field, Input } from '@chakra-ui/react';

// Fields shared by the three submit forms. Labels are real <label>s (Field.Label) for accessibility.

export function ServerNameField({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (v: string) => void;
  id: string;
}) {
  return (
    <Field.Root>
      <Field.Label htmlFor={id}>Server Name</Field.Label>
      <Input
        id={id}
        name="name"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder="My Awesome Server"
        maxLength={100}
        autoComplete="off"
        bg="bg.subtle"
      />
    </Field.Root>
  );
}

export function InviteLinkField({
  value,
  onChange,
  id,
}: {
  value: string;
  onChange: (v: string) => void;
  id: string;
}) {
  return (
    <Field.Root>
      <Field.Label htmlFor={id}>Invite Link</Field.Label>
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
      />
      <Field.HelperText color="fg.subtle">
        Use a permanent invite link that never expires (in Discord: Invite People → Edit invite link → Expire
        After: Never).
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
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  helper?: string;
  name: string;
}) {
  return (
    <Field.Root>
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
      />
      {helper ? <Field.HelperText color="fg.subtle">{helper}</Field.HelperText> : null}
    </Field.Root>
  );
}

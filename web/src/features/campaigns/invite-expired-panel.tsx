import { Button, Field, Flex, Input, Stack, Text } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { LuLink } from 'react-icons/lu';
import { useReplaceInvite } from './use-replace-invite.ts';
import { useTranslation } from 'react-i18next';

/** The campaign's invite stopped working: say so, and take a new permanent invite to the same server. */
export function InviteExpiredPanel({
  campaignId,
  name,
  compact = false,
}: {
  campaignId: string;
  name: string;
  compact?: boolean;
}) {
  const [link, setLink] = useState('');
  const { t } = useTranslation();
  const replace = useReplaceInvite(campaignId);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (link.trim()) replace.mutate(link.trim(), { onSuccess: () => setLink('') });
  };
  return (
    <Stack
      as="form"
      onSubmit={submit}
      role="group"
      aria-label={t('submit.expired.label', { name })}
      gap="2"
      bg="red.subtle"
      borderWidth="1px"
      borderColor="red.emphasized"
      borderRadius="lg"
      px="3"
      py="2.5"
    >
      <Text textStyle="sm" color="red.fg" fontWeight="medium">
        {t('submit.expired.title')}
      </Text>
      {compact ? null : (
        <Text textStyle="xs" color="fg.muted">
          {t('submit.expired.text')}
        </Text>
      )}
      <Flex gap="2" direction={compact ? 'column' : { base: 'column', sm: 'row' }}>
        <Field.Root flex="1">
          <Field.Label htmlFor={id} srOnly>
            {t('submit.expired.fieldLabel', { name })}
          </Field.Label>
          <Input
            id={id}
            type="url"
            size="sm"
            placeholder="https://discord.gg/..."
            value={link}
            onChange={(e) => setLink(e.target.value)}
            bg="bg.panel"
          />
        </Field.Root>
        <Button
          type="submit"
          size="sm"
          colorPalette="red"
          loading={replace.isPending}
          loadingText={t('submit.expired.updating')}
          disabled={!link.trim()}
        >
          <LuLink /> {t('submit.expired.update')}
        </Button>
      </Flex>
    </Stack>
  );
}

import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Clipboard,
  Code,
  Field,
  Fieldset,
  Flex,
  HStack,
  IconButton,
  Input,
  Link,
  NativeSelect,
  Stack,
  Text,
} from '@chakra-ui/react';
import {
  ACCESS_TOKEN_EXPIRY_DAYS,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenScope,
  type ApiAccessToken,
  type CreatedAccessToken,
} from '@shared/access-tokens.ts';
import type { TFunction } from 'i18next';
import { useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { LuExternalLink, LuKeyRound } from 'react-icons/lu';
import { errorMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { useLocale } from '../../lib/i18n.ts';
import { useAccessTokens, useCreateAccessToken, useRevokeAccessToken } from './use-access-tokens.ts';

// Personal access tokens for the public API (decision 053): create (name, scopes, expiry), shown once,
// listed without their secret, revoked at once. The server checks every value again.

/** Each scope's name and what it allows, as the form and the list show them. */
const SCOPE_TEXTS = {
  read: {
    labelKey: 'account.tokens.scopes.read',
    helpKey: 'account.tokens.scopes.readHelp',
  },
  'rewards:claim': {
    labelKey: 'account.tokens.scopes.claim',
    helpKey: 'account.tokens.scopes.claimHelp',
  },
  'campaigns:manage': {
    labelKey: 'account.tokens.scopes.manage',
    helpKey: 'account.tokens.scopes.manageHelp',
  },
} as const satisfies Record<AccessTokenScope, { labelKey: string; helpKey: string }>;

function expiryLabel(days: number | null, t: TFunction): string {
  return days === null ? t('account.tokens.never') : t('account.tokens.days', { count: days });
}

function CreatedTokenNotice({ created, onDone }: { created: CreatedAccessToken; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="success" variant="surface" borderRadius="lg" alignItems="flex-start">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>{t('account.tokens.createdNotice')}</Alert.Title>
        <Clipboard.Root value={created.token}>
          <HStack gap="2">
            <Code
              flex="1"
              minW="0"
              px="2"
              py="1.5"
              textStyle="sm"
              overflowWrap="anywhere"
              data-testid="new-access-token"
            >
              {created.token}
            </Code>
            <Clipboard.Trigger asChild>
              <IconButton variant="surface" size="sm" aria-label={t('account.tokens.copy')}>
                <Clipboard.Indicator />
              </IconButton>
            </Clipboard.Trigger>
          </HStack>
        </Clipboard.Root>
        <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={onDone}>
          {t('account.tokens.done')}
        </Button>
      </Stack>
    </Alert.Root>
  );
}

function TokenRow({ token }: { token: ApiAccessToken }) {
  const revoke = useRevokeAccessToken();
  const { t } = useTranslation();
  const locale = useLocale();
  const date = (iso: string) => formatDate(iso, undefined, locale);
  return (
    <Flex
      gap="3"
      align={{ base: 'flex-start', sm: 'center' }}
      direction={{ base: 'column', sm: 'row' }}
      p="3"
      borderWidth="1px"
      borderColor="border"
      borderRadius="lg"
      bg="bg.subtle"
    >
      <Box flex="1" minW="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="semibold" truncate>
            {token.name}
          </Text>
          <Code textStyle="xs" color="fg.muted">
            {ACCESS_TOKEN_PREFIX}…{token.hint}
          </Code>
        </HStack>
        <HStack gap="1.5" wrap="wrap" mt="1.5">
          {token.scopes.map((scope) => (
            <Badge key={scope} size="sm" variant="subtle" colorPalette="blue">
              {t(SCOPE_TEXTS[scope].labelKey)}
            </Badge>
          ))}
        </HStack>
        <Text textStyle="xs" color="fg.muted" mt="1.5">
          {t('account.tokens.created', { date: date(token.createdAt) })} ·{' '}
          {token.expiresAt
            ? t('account.tokens.expires', { date: date(token.expiresAt) })
            : t('account.tokens.neverExpires')}{' '}
          ·{' '}
          {token.lastUsedAt
            ? t('account.tokens.lastUsed', { date: date(token.lastUsedAt) })
            : t('account.tokens.neverUsed')}
        </Text>
      </Box>
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        onClick={() => revoke.mutate(token.id)}
        loading={revoke.isPending}
        aria-label={t('account.tokens.revokeLabel', { name: token.name })}
      >
        {t('account.tokens.revoke')}
      </Button>
    </Flex>
  );
}

function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedAccessToken) => void }) {
  const create = useCreateAccessToken();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<AccessTokenScope[]>(['read']);
  const [expiry, setExpiry] = useState('30');
  const [error, setError] = useState<string | null>(null);
  const { t } = useTranslation();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const expiresInDays = expiry === 'never' ? null : Number(expiry);
    create.mutate(
      { name, scopes, expiresInDays },
      {
        onSuccess: (created) => {
          setName('');
          onCreated(created);
        },
        onError: (err) => setError(errorMessage(err, t('account.tokens.createFailed'))),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        <Flex gap="4" direction={{ base: 'column', sm: 'row' }}>
          <Field.Root flex="2" invalid={error !== null}>
            <Field.Label htmlFor="token-name">{t('account.tokens.name')}</Field.Label>
            <Input
              id="token-name"
              placeholder={t('account.tokens.namePlaceholder')}
              maxLength={60}
              bg="bg.subtle"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            {error && <Field.ErrorText>{error}</Field.ErrorText>}
          </Field.Root>
          <Field.Root flex="1">
            <Field.Label htmlFor="token-expiry">{t('account.tokens.expiry')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                id="token-expiry"
                bg="bg.subtle"
                value={expiry}
                onChange={(e) => setExpiry(e.target.value)}
              >
                {ACCESS_TOKEN_EXPIRY_DAYS.map((days) => (
                  <option key={String(days)} value={days === null ? 'never' : String(days)}>
                    {expiryLabel(days, t)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </Flex>
        <ScopeChoices scopes={scopes} onChange={setScopes} />
        <Button
          type="submit"
          colorPalette="brand"
          alignSelf="flex-start"
          loading={create.isPending}
          disabled={scopes.length === 0 || name.trim() === ''}
        >
          <LuKeyRound /> {t('account.tokens.create')}
        </Button>
      </Stack>
    </form>
  );
}

/** "What it may do": one checkbox per scope, with what it allows. */
function ScopeChoices({
  scopes,
  onChange,
}: {
  scopes: AccessTokenScope[];
  onChange: Dispatch<SetStateAction<AccessTokenScope[]>>;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset.Root>
      <Fieldset.Legend textStyle="sm" fontWeight="medium">
        {t('account.tokens.scopesTitle')}
      </Fieldset.Legend>
      <Stack gap="2" mt="2">
        {ACCESS_TOKEN_SCOPES.map((scope) => (
          <Checkbox.Root
            key={scope}
            alignItems="flex-start"
            checked={scopes.includes(scope)}
            onCheckedChange={(e) =>
              onChange((current) =>
                e.checked === true ? [...current, scope] : current.filter((s) => s !== scope),
              )
            }
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control mt="0.5" />
            <Checkbox.Label>
              <Text as="span" fontWeight="medium">
                {t(SCOPE_TEXTS[scope].labelKey)}
              </Text>
              <Text as="span" color="fg.muted" textStyle="sm">
                {' '}
                — {t(SCOPE_TEXTS[scope].helpKey)}
              </Text>
            </Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
    </Fieldset.Root>
  );
}

/** The Account page's "API access" section. */
export function AccessTokensSection() {
  const tokens = useAccessTokens();
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const { t } = useTranslation();
  return (
    <Stack gap="4">
      <Text textStyle="sm" color="fg.muted">
        {t('account.tokens.intro', { count: ACCESS_TOKEN_REQUESTS_PER_MINUTE })}{' '}
        <Link href="/api/docs" color="brand.fg" target="_blank" rel="noreferrer">
          {t('account.tokens.docs')} <LuExternalLink />
        </Link>
      </Text>
      {created && <CreatedTokenNotice created={created} onDone={() => setCreated(null)} />}
      <CreateTokenForm onCreated={setCreated} />
      {tokens.isError ? (
        <Text textStyle="sm" color="fg.error">
          {errorMessage(tokens.error, t('account.tokens.loadFailed'))}
        </Text>
      ) : tokens.data && tokens.data.length > 0 ? (
        <Stack gap="2" as="ul" listStyleType="none" aria-label={t('account.tokens.listLabel')}>
          {tokens.data.map((token) => (
            <Box as="li" key={token.id}>
              <TokenRow token={token} />
            </Box>
          ))}
        </Stack>
      ) : tokens.data ? (
        <Text textStyle="sm" color="fg.subtle">
          {t('account.tokens.empty')}
        </Text>
      ) : null}
    </Stack>
  );
}

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
  ACCESS_TOKEN_SCOPE_LABELS,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenScope,
  type ApiAccessToken,
  type CreatedAccessToken,
} from '@shared/access-tokens.ts';
import { useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { LuExternalLink, LuKeyRound } from 'react-icons/lu';
import { errorMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { useAccessTokens, useCreateAccessToken, useRevokeAccessToken } from './use-access-tokens.ts';

// Personal access tokens for the public API (decision 053): create (name, scopes, expiry), shown once,
// listed without their secret, revoked at once. The server checks every value again.

function expiryLabel(days: number | null): string {
  return days === null ? 'Never' : `${days} days`;
}

function CreatedTokenNotice({ created, onDone }: { created: CreatedAccessToken; onDone: () => void }) {
  return (
    <Alert.Root status="success" variant="surface" borderRadius="lg" alignItems="flex-start">
      <Alert.Indicator />
      <Stack gap="2" flex="1" minW="0">
        <Alert.Title>Copy your new token now: it will not be shown again.</Alert.Title>
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
              <IconButton variant="surface" size="sm" aria-label="Copy token">
                <Clipboard.Indicator />
              </IconButton>
            </Clipboard.Trigger>
          </HStack>
        </Clipboard.Root>
        <Button size="xs" variant="ghost" alignSelf="flex-start" onClick={onDone}>
          Done
        </Button>
      </Stack>
    </Alert.Root>
  );
}

function TokenRow({ token }: { token: ApiAccessToken }) {
  const revoke = useRevokeAccessToken();
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
              {ACCESS_TOKEN_SCOPE_LABELS[scope].label}
            </Badge>
          ))}
        </HStack>
        <Text textStyle="xs" color="fg.muted" mt="1.5">
          Created {formatDate(token.createdAt)} ·{' '}
          {token.expiresAt ? `expires ${formatDate(token.expiresAt)}` : 'never expires'} ·{' '}
          {token.lastUsedAt ? `last used ${formatDate(token.lastUsedAt)}` : 'never used'}
        </Text>
      </Box>
      <Button
        size="sm"
        variant="outline"
        colorPalette="red"
        onClick={() => revoke.mutate(token.id)}
        loading={revoke.isPending}
        aria-label={`Revoke ${token.name}`}
      >
        Revoke
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
        onError: (err) => setError(errorMessage(err, 'Failed to create the token')),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="4">
        <Flex gap="4" direction={{ base: 'column', sm: 'row' }}>
          <Field.Root flex="2" invalid={error !== null}>
            <Field.Label htmlFor="token-name">Token name</Field.Label>
            <Input
              id="token-name"
              placeholder="e.g. My reward script"
              maxLength={60}
              bg="bg.subtle"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            {error && <Field.ErrorText>{error}</Field.ErrorText>}
          </Field.Root>
          <Field.Root flex="1">
            <Field.Label htmlFor="token-expiry">Expires after</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                id="token-expiry"
                bg="bg.subtle"
                value={expiry}
                onChange={(e) => setExpiry(e.target.value)}
              >
                {ACCESS_TOKEN_EXPIRY_DAYS.map((days) => (
                  <option key={String(days)} value={days === null ? 'never' : String(days)}>
                    {expiryLabel(days)}
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
          <LuKeyRound /> Create token
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
  return (
    <Fieldset.Root>
      <Fieldset.Legend textStyle="sm" fontWeight="medium">
        What it may do
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
                {ACCESS_TOKEN_SCOPE_LABELS[scope].label}
              </Text>
              <Text as="span" color="fg.muted" textStyle="sm">
                {' '}
                — {ACCESS_TOKEN_SCOPE_LABELS[scope].help}
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
  return (
    <Stack gap="4">
      <Text textStyle="sm" color="fg.muted">
        Let your own scripts and bots use the API as you, with only the permissions you choose (at most{' '}
        {ACCESS_TOKEN_REQUESTS_PER_MINUTE} requests a minute per token). A token can never buy or send coins,
        delete your account or create other tokens.{' '}
        <Link href="/api/docs" color="brand.fg" target="_blank" rel="noreferrer">
          API documentation <LuExternalLink />
        </Link>
      </Text>
      {created && <CreatedTokenNotice created={created} onDone={() => setCreated(null)} />}
      <CreateTokenForm onCreated={setCreated} />
      {tokens.isError ? (
        <Text textStyle="sm" color="fg.error">
          {errorMessage(tokens.error, 'Failed to load your tokens')}
        </Text>
      ) : tokens.data && tokens.data.length > 0 ? (
        <Stack gap="2" as="ul" listStyleType="none" aria-label="Your access tokens">
          {tokens.data.map((token) => (
            <Box as="li" key={token.id}>
              <TokenRow token={token} />
            </Box>
          ))}
        </Stack>
      ) : tokens.data ? (
        <Text textStyle="sm" color="fg.subtle">
          No access tokens yet.
        </Text>
      ) : null}
    </Stack>
  );
}

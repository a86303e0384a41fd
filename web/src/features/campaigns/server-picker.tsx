import { Badge, Box, Button, Card, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiManageableGuild, GuildInviteResponse } from '@shared/campaign-schemas.ts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { LuBot, LuCircleCheck, LuExternalLink, LuLink, LuWandSparkles } from 'react-icons/lu';
import { apiJson, errorMessage } from '../../lib/api.ts';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { campaignKeys } from '../../lib/query-keys.ts';
import { Trans, useTranslation } from 'react-i18next';

// Issue 31 item 3: Submit starts from the owner's own servers (those they own or have Manage Server
// in, from their Discord guild list), says which have our bot, and guides them to a permanent invite.
// Pasting an invite link without picking keeps working.

export function useManageableGuilds() {
  return useQuery<ApiManageableGuild[]>({ queryKey: campaignKeys.manageableGuilds(), staleTime: 60_000 });
}

export function ServerPicker({
  picked,
  onPick,
  needsBot,
  inviteLink,
  onInviteCreated,
}: {
  picked: ApiManageableGuild | null;
  onPick: (guild: ApiManageableGuild | null) => void;
  /** The chosen tab's campaigns need our bot (regular, featured). */
  needsBot: boolean;
  /** The invite our bot already made for the picked server, if any. */
  inviteLink?: string;
  onInviteCreated: (guildId: string, link: string) => void;
}) {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useManageableGuilds();
  if (isError) return null; // The paste-a-link form below still works.
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderColor="border"
      borderRadius="xl"
      data-testid="server-picker"
    >
      <Card.Body p={{ base: '4', md: '5' }} gap="3">
        <Stack gap="0.5">
          <Heading as="h2" textStyle="md" fontWeight="semibold">
            {t('submit.picker.title')}
          </Heading>
          <Text textStyle="sm" color="fg.muted">
            {t('submit.picker.subtitle')}
          </Text>
        </Stack>
        {isLoading ? (
          <Flex gap="2" wrap="wrap">
            <Skeleton h="12" w="44" borderRadius="lg" />
            <Skeleton h="12" w="44" borderRadius="lg" />
          </Flex>
        ) : (data ?? []).length === 0 ? (
          <Text textStyle="sm" color="fg.subtle">
            {t('submit.picker.none')}
          </Text>
        ) : (
          <GuildChoices guilds={data ?? []} picked={picked} onPick={onPick} />
        )}
        {picked ? (
          <PickedGuide
            guild={picked}
            needsBot={needsBot}
            inviteLink={inviteLink}
            onInviteCreated={(link) => onInviteCreated(picked.id, link)}
          />
        ) : null}
      </Card.Body>
    </Card.Root>
  );
}

function Step({ done, children }: { done: boolean; children: React.ReactNode }) {
  return (
    <Flex gap="2" align="flex-start" textStyle="sm">
      <Box color={done ? 'green.fg' : 'fg.subtle'} mt="0.5" flexShrink={0}>
        {done ? <LuCircleCheck /> : <LuLink />}
      </Box>
      <Box flex="1">{children}</Box>
    </Flex>
  );
}

/** What the picked server still needs: our bot (bot kinds) and a never-expiring invite link. */
function PickedGuide({
  guild,
  needsBot,
  inviteLink,
  onInviteCreated,
}: {
  guild: ApiManageableGuild;
  needsBot: boolean;
  inviteLink?: string;
  onInviteCreated: (link: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack
      gap="2.5"
      bg="bg.subtle"
      borderWidth="1px"
      borderColor="border.muted"
      borderRadius="lg"
      p="3"
      aria-live="polite"
    >
      {needsBot ? <BotStep guild={guild} /> : null}
      <Step done={inviteLink !== undefined}>
        {inviteLink !== undefined ? (
          <Text>
            <Trans
              i18nKey="submit.picker.inviteCreated"
              values={{ link: inviteLink.replace('https://', '') }}
              components={{ b: <b /> }}
            />
          </Text>
        ) : guild.botPresent ? (
          <CreateInvite guild={guild} onInviteCreated={onInviteCreated} />
        ) : (
          <Text>
            <Trans
              i18nKey="submit.picker.inDiscord"
              values={{ name: guild.name }}
              components={{ b: <b /> }}
            />
          </Text>
        )}
      </Step>
      <Badge alignSelf="flex-start" colorPalette="brand" variant="subtle">
        {inviteLink !== undefined ? t('submit.picker.filledBoth') : t('submit.picker.filledName')}
      </Badge>
    </Stack>
  );
}

function GuildChoices({
  guilds,
  picked,
  onPick,
}: {
  guilds: ApiManageableGuild[];
  picked: ApiManageableGuild | null;
  onPick: (guild: ApiManageableGuild | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap="2" wrap="wrap" role="radiogroup" aria-label={t('submit.picker.label')}>
      {guilds.map((guild) => {
        const selected = picked?.id === guild.id;
        return (
          <Button
            key={guild.id}
            role="radio"
            aria-checked={selected}
            variant={selected ? 'subtle' : 'outline'}
            colorPalette={selected ? 'brand' : 'gray'}
            h="auto"
            py="2"
            px="2.5"
            justifyContent="flex-start"
            maxW={{ base: 'full', sm: '64' }}
            flex={{ base: '1 1 100%', sm: '0 1 auto' }}
            onClick={() => onPick(selected ? null : guild)}
          >
            <ServerAvatar name={guild.name} iconUrl={guild.iconUrl} size="sm" />
            <Stack gap="0" align="flex-start" minW="0">
              <Text truncate fontWeight="medium" maxW="44">
                {guild.name}
              </Text>
              {guild.botPresent ? (
                <Text textStyle="xs" color="green.fg">
                  {t('submit.picker.botAdded')}
                </Text>
              ) : (
                <Text textStyle="xs" color="fg.subtle">
                  {t('submit.picker.noBot')}
                </Text>
              )}
            </Stack>
          </Button>
        );
      })}
    </Flex>
  );
}

/** Bot kinds: our bot is in the picked server, or the button that adds it. */
function BotStep({ guild }: { guild: ApiManageableGuild }) {
  const { t } = useTranslation();
  return (
    <Step done={guild.botPresent === true}>
      {guild.botPresent ? (
        <Text>{t('submit.picker.botIn', { name: guild.name })}</Text>
      ) : (
        <Flex gap="2" align="center" wrap="wrap">
          <Text flex="1" minW="40">
            {t('submit.picker.addBot', { name: guild.name })}
          </Text>
          <Button asChild size="xs" colorPalette="brand">
            <a href={guild.botInviteUrl} target="_blank" rel="noopener noreferrer">
              <LuBot /> {t('submit.picker.addBotButton')} <LuExternalLink />
            </a>
          </Button>
        </Flex>
      )}
    </Step>
  );
}

/**
 * Our bot makes the never-expiring invite where it is (POST /api/guilds/:id/invite); elsewhere, or
 * when Discord says it may not, the owner makes one by hand as the step says.
 */
function CreateInvite({
  guild,
  onInviteCreated,
}: {
  guild: ApiManageableGuild;
  onInviteCreated: (link: string) => void;
}) {
  const { t } = useTranslation();
  const create = useMutation({
    mutationFn: () =>
      apiJson<GuildInviteResponse>('POST', `/api/guilds/${encodeURIComponent(guild.id)}/invite`),
    onSuccess: (body) => onInviteCreated(body.inviteLink),
  });
  return (
    <Stack gap="1.5">
      <Flex gap="2" align="center" wrap="wrap">
        <Text flex="1" minW="40">
          {t('submit.picker.canCreate', { name: guild.name })}
        </Text>
        <Button
          size="xs"
          colorPalette="brand"
          loading={create.isPending}
          loadingText={t('submit.picker.creating')}
          onClick={() => create.mutate()}
        >
          <LuWandSparkles /> {t('submit.picker.create')}
        </Button>
      </Flex>
      {create.isError ? (
        <Text color="red.fg" role="alert">
          {errorMessage(create.error, t('submit.picker.createFailed'))}
        </Text>
      ) : (
        <Text color="fg.subtle">
          <Trans
            i18nKey="submit.picker.orInDiscord"
            values={{ name: guild.name }}
            components={{ b: <b /> }}
          />
        </Text>
      )}
    </Stack>
  );
}

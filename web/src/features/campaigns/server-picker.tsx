import { Badge, Box, Button, Card, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ApiManageableGuild } from '@shared/campaign-schemas.ts';
import { useQuery } from '@tanstack/react-query';
import { LuBot, LuCircleCheck, LuExternalLink, LuLink } from 'react-icons/lu';
import { ServerAvatar } from '../../components/server-avatar.tsx';
import { campaignKeys } from '../../lib/query-keys.ts';

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
}: {
  picked: ApiManageableGuild | null;
  onPick: (guild: ApiManageableGuild | null) => void;
  /** The chosen tab's campaigns need our bot (regular, featured). */
  needsBot: boolean;
}) {
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
            Pick your server
          </Heading>
          <Text textStyle="sm" color="fg.muted">
            Servers you own or manage on Discord. Or skip this and paste an invite link below.
          </Text>
        </Stack>
        {isLoading ? (
          <Flex gap="2" wrap="wrap">
            <Skeleton h="12" w="44" borderRadius="lg" />
            <Skeleton h="12" w="44" borderRadius="lg" />
          </Flex>
        ) : (data ?? []).length === 0 ? (
          <Text textStyle="sm" color="fg.subtle">
            You do not own or manage any Discord server yet.
          </Text>
        ) : (
          <Flex gap="2" wrap="wrap" role="radiogroup" aria-label="Your servers">
            {(data ?? []).map((guild) => {
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
                        Bot added
                      </Text>
                    ) : (
                      <Text textStyle="xs" color="fg.subtle">
                        No bot yet
                      </Text>
                    )}
                  </Stack>
                </Button>
              );
            })}
          </Flex>
        )}
        {picked ? <PickedGuide guild={picked} needsBot={needsBot} /> : null}
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
function PickedGuide({ guild, needsBot }: { guild: ApiManageableGuild; needsBot: boolean }) {
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
      {needsBot ? (
        <Step done={guild.botPresent === true}>
          {guild.botPresent ? (
            <Text>Our bot is in {guild.name}.</Text>
          ) : (
            <Flex gap="2" align="center" wrap="wrap">
              <Text flex="1" minW="40">
                Add our bot to {guild.name}: it verifies member joins.
              </Text>
              <Button asChild size="xs" colorPalette="brand">
                <a href={guild.botInviteUrl} target="_blank" rel="noopener noreferrer">
                  <LuBot /> Add bot <LuExternalLink />
                </a>
              </Button>
            </Flex>
          )}
        </Step>
      ) : null}
      <Step done={false}>
        <Text>
          In Discord, open {guild.name} → <b>Invite People</b> → <b>Edit invite link</b>, set{' '}
          <b>Expire After: Never</b>, copy the link and paste it below.
        </Text>
      </Step>
      <Badge alignSelf="flex-start" colorPalette="brand" variant="subtle">
        Server name filled in below
      </Badge>
    </Stack>
  );
}

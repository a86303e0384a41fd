import { Box, Button, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import { LuBot, LuExternalLink, LuTriangleAlert } from 'react-icons/lu';
import { recheckWhenBack } from '../../lib/recheck-when-back.ts';
import { useBotInvite } from './use-bot-invite.ts';
import { useTranslation } from 'react-i18next';

/**
 * Invite Bot: regular and featured campaigns need our bot in the server to verify joins. After a
 * submit failed because the bot is missing, the panel turns into a warning with a link that
 * pre-selects that server.
 */
export function BotInvitePanel({
  missingInviteUrl,
  onInvited,
}: {
  missingInviteUrl: string | null;
  /** Called once the user is back from the invite (the warning then goes: they can submit again). */
  onInvited?: () => void;
}) {
  const { t } = useTranslation();
  const { data } = useBotInvite();
  const inviteUrl = missingInviteUrl ?? data?.inviteUrl;
  const missing = missingInviteUrl !== null;
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The failed form is below; bring the way out into view.
    if (missing) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [missing, missingInviteUrl]);
  return (
    <Card.Root
      ref={ref}
      variant="outline"
      bg={missing ? 'orange.subtle' : 'bg.panel'}
      borderColor={missing ? 'orange.emphasized' : 'border'}
      borderRadius="xl"
      role={missing ? 'alert' : undefined}
    >
      <Card.Body p={{ base: '4', md: '5' }}>
        <Flex gap="4" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'center' }}>
          <Box
            colorPalette={missing ? 'orange' : 'brand'}
            bg="colorPalette.muted"
            color="colorPalette.fg"
            borderRadius="lg"
            p="2.5"
            fontSize="xl"
            alignSelf="flex-start"
          >
            {missing ? <LuTriangleAlert /> : <LuBot />}
          </Box>
          <Stack gap="1" flex="1" minW="0">
            <Heading as="h2" textStyle="md" fontWeight="semibold">
              {missing ? t('submit.bot.missingTitle') : t('submit.bot.addTitle')}
            </Heading>
            <Text textStyle="sm" color="fg.muted">
              {missing ? t('submit.bot.missingText') : t('submit.bot.addText')}
            </Text>
          </Stack>
          {inviteUrl ? (
            <Button
              asChild
              colorPalette={missing ? 'orange' : 'brand'}
              variant={missing ? 'solid' : 'outline'}
              flexShrink={0}
            >
              <a
                href={inviteUrl}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => {
                  if (missing && onInvited) recheckWhenBack(onInvited);
                }}
              >
                <LuBot /> {t('submit.bot.invite')} <LuExternalLink />
              </a>
            </Button>
          ) : null}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

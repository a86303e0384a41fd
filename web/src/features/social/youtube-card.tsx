import { Badge, Box, Button, Card, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import type { ApiSocialTask } from '@shared/api-types.ts';
import { formatCents } from '@shared/money.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '@shared/social-constants.ts';
import { FaYoutube } from 'react-icons/fa6';
import { LuCircleCheck, LuExternalLink, LuTriangleAlert } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { pendingLabel } from './social-task-card.tsx';
import { useTranslation } from 'react-i18next';

/** The dedicated YouTube card (docs/spec/product-spec.md §2): Subscribe & Earn, +2.00 coins, Completed or Unavailable. */
export function YouTubeCard({
  task,
  pendingSeconds,
  onStart,
}: {
  task: ApiSocialTask | undefined;
  pendingSeconds: number | null;
  onStart: () => void;
}) {
  const { t } = useTranslation();
  const completed = task?.completed ?? false;
  const pending = pendingSeconds !== null;
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderRadius="2xl"
      overflow="hidden"
      borderColor={task && !completed ? 'rgba(255,59,59,0.45)' : 'border'}
      position="relative"
      data-testid="youtube-card"
    >
      <Box
        position="absolute"
        inset="0"
        pointerEvents="none"
        bgImage="radial-gradient(600px 220px at 0% 0%, rgba(255,0,0,0.16), transparent 70%)"
      />
      <Card.Body p={{ base: '5', md: '8' }} position="relative">
        <Flex
          direction={{ base: 'column', md: 'row' }}
          align={{ base: 'stretch', md: 'center' }}
          gap={{ base: '5', md: '8' }}
        >
          <Box
            boxSize={{ base: '14', md: '20' }}
            borderRadius="2xl"
            display="grid"
            placeItems="center"
            fontSize={{ base: '3xl', md: '5xl' }}
            bg="rgba(255,0,0,0.14)"
            color="#ff3b3b"
            flexShrink={0}
          >
            <Icon as={FaYoutube} />
          </Box>
          <TaskSummary task={task} />
          <Button
            size="xl"
            borderRadius="xl"
            flexShrink={0}
            minW={{ md: '52' }}
            {...(task && !completed
              ? { bg: '#e62117', color: 'white', _hover: { bg: '#c81c13' }, variant: 'solid' as const }
              : { colorPalette: completed ? 'green' : 'gray', variant: 'subtle' as const })}
            disabled={!task || completed || pending}
            onClick={onStart}
          >
            {!task ? (
              t('social.unavailable')
            ) : completed ? (
              <>
                <LuCircleCheck />
                {t('social.done')}
              </>
            ) : pending ? (
              pendingLabel(pendingSeconds, t)
            ) : (
              <>
                <FaYoutube />
                {t('social.subscribe')}
                <LuExternalLink />
              </>
            )}
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

/** Title and state (unavailable, done), what the task is, and its reward. */
function TaskSummary({ task }: { task: ApiSocialTask | undefined }) {
  const { t } = useTranslation();
  const completed = task?.completed ?? false;
  return (
    <Stack gap="2" flex="1" minW="0">
      <Flex gap="2" align="center" wrap="wrap">
        <Heading as="h2" textStyle={{ base: 'xl', md: '2xl' }} fontWeight="bold">
          {t('social.subscribe')}
        </Heading>
        {!task ? (
          <Badge colorPalette="orange" variant="subtle" borderRadius="full" px="2.5">
            {t('social.unavailable')}
          </Badge>
        ) : completed ? (
          <Badge colorPalette="green" variant="subtle" borderRadius="full" px="2.5">
            <LuCircleCheck />
            {t('social.done')}
          </Badge>
        ) : null}
      </Flex>
      {task ? (
        <Text color="fg.muted">{task.title}</Text>
      ) : (
        <Flex gap="2" align="center" color="orange.fg">
          <Icon as={LuTriangleAlert} flexShrink={0} />
          <Text>{t('social.unavailableText')}</Text>
        </Flex>
      )}
      <CoinAmount
        value={task?.coins ?? formatCents(DEFAULT_SOCIAL_TASK_CENTS)}
        showPlus
        suffix={t('common.coinsWord')}
        size="lg"
        mt="1"
      />
    </Stack>
  );
}

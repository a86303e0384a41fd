import { Badge, Box, Button, Card, Flex, HStack, Icon, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { ApiSocialTask } from '@shared/api-types.ts';
import { LuCircleCheck, LuExternalLink } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { platformStyle } from './platforms.ts';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

/** Label for a button whose claim is pending: a small countdown, then "Verifying...". */
export function pendingLabel(seconds: number, t: TFunction): string {
  return seconds > 0 ? t('social.claimingIn', { seconds }) : t('social.verifying');
}

export function SocialTaskCard({
  task,
  pendingSeconds,
  onStart,
}: {
  task: ApiSocialTask;
  pendingSeconds: number | null;
  onStart: (task: ApiSocialTask) => void;
}) {
  const { t } = useTranslation();
  const style = platformStyle(task.platform);
  const pending = pendingSeconds !== null;
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderColor="border"
      borderRadius="2xl"
      transition="border-color 200ms, transform 200ms"
      _hover={
        task.completed ? undefined : { borderColor: 'border.emphasized', transform: 'translateY(-2px)' }
      }
      data-testid={`social-task-${task.platform}`}
    >
      <Card.Body p={{ base: '5', md: '6' }} gap="4">
        <PlatformHead task={task} />
        <Stack gap="1" flex="1">
          <Text
            textStyle="xs"
            fontWeight="semibold"
            color="fg.subtle"
            textTransform="uppercase"
            letterSpacing="wider"
          >
            {style.name}
          </Text>
          <Text as="h3" fontWeight="semibold" textStyle="md" lineClamp={2}>
            {task.title}
          </Text>
        </Stack>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <CoinAmount value={task.coins} showPlus suffix={t('common.coinsWord')} size="md" />
          <Button
            size="md"
            borderRadius="lg"
            colorPalette={task.completed ? 'green' : 'brand'}
            variant={task.completed ? 'subtle' : 'solid'}
            disabled={task.completed || pending}
            onClick={() => onStart(task)}
          >
            {task.completed ? (
              <>
                <LuCircleCheck />
                {t('social.done')}
              </>
            ) : pending ? (
              pendingLabel(pendingSeconds, t)
            ) : (
              <>
                {t('social.follow')}
                <LuExternalLink />
              </>
            )}
            {/* Every card has this button: its accessible name says which task it is for. */}
            <VisuallyHidden>: {task.title}</VisuallyHidden>
          </Button>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/** The platform's icon, and "Done" once completed. */
function PlatformHead({ task }: { task: ApiSocialTask }) {
  const { t } = useTranslation();
  const style = platformStyle(task.platform);
  return (
    <Flex justify="space-between" align="flex-start" gap="3">
      <Box
        boxSize="12"
        borderRadius="xl"
        display="grid"
        placeItems="center"
        fontSize="2xl"
        bg={style.tint}
        color={style.color}
        flexShrink={0}
      >
        <Icon as={style.icon} />
      </Box>
      {task.completed ? (
        <Badge colorPalette="green" variant="subtle" borderRadius="full" px="2.5">
          <LuCircleCheck />
          {t('social.doneBadge')}
        </Badge>
      ) : null}
    </Flex>
  );
}

import { Badge, Box, Button, Card, Flex, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuCircleCheck, LuClock } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';
import { formatMoneyText } from '@shared/i18n/index.ts';

export interface RewardCardProps {
  /** Stable test id part (hourly, bonus, daily), whatever the language. */
  testId: string;
  title: string;
  cadence: string;
  amount: string;
  icon: IconType;
  palette: 'brand' | 'purple' | 'gold';
  /** Claimable now (per the last fetched status and the local clock). */
  claimable: boolean;
  /** Text of the countdown when waiting, e.g. "42 minutes" or "5h 12m". */
  countdown: string | null;
  claimLabel: string;
  claiming: boolean;
  /** Earned amount while the 3-second confirmation shows. */
  confirmation: string | null;
  onClaim: () => void;
}

export function RewardCard(props: RewardCardProps) {
  const { t } = useTranslation();
  const { testId, title, cadence, amount, icon, palette, claimable, confirmation } = props;
  const ready = claimable && !confirmation;
  const titleRef = useRef<HTMLHeadingElement>(null);
  // The claim button disappears when the confirmation shows: if it had focus, focus stays on this card
  // (its title) instead of falling back to the page; the confirmation itself is announced (role=status).
  useEffect(() => {
    if (confirmation && (document.activeElement === document.body || document.activeElement === null))
      titleRef.current?.focus();
  }, [confirmation]);
  return (
    <Card.Root
      variant="outline"
      bg="bg.panel"
      borderRadius="2xl"
      overflow="hidden"
      colorPalette={palette}
      borderColor={ready ? 'colorPalette.emphasized' : 'border'}
      boxShadow={ready ? '0 18px 50px -24px var(--chakra-colors-color-palette-solid)' : undefined}
      transition="border-color 200ms, box-shadow 200ms"
      data-testid={`reward-card-${testId}`}
    >
      <Box h="1" bg={ready ? 'colorPalette.solid' : 'border.emphasized'} />
      <Card.Body p={{ base: '5', md: '6' }} gap="5">
        <Flex justify="space-between" align="flex-start" gap="3">
          <HStack gap="3.5">
            <Box
              bg="colorPalette.subtle"
              color="colorPalette.fg"
              borderWidth="1px"
              borderColor="colorPalette.muted"
              borderRadius="xl"
              boxSize="12"
              display="grid"
              placeItems="center"
              fontSize="xl"
              flexShrink={0}
            >
              <Icon as={icon} />
            </Box>
            <Stack gap="0.5">
              <Text as="h2" fontWeight="semibold" textStyle="lg" ref={titleRef} tabIndex={-1} outline="none">
                {title}
              </Text>
              <Text color="fg.muted" textStyle="sm">
                {cadence}
              </Text>
            </Stack>
          </HStack>
          {ready ? (
            <Badge colorPalette="green" variant="subtle" borderRadius="full" px="2.5">
              {t('rewards.ready')}
            </Badge>
          ) : null}
        </Flex>

        <CoinAmount value={amount} showPlus suffix={t('common.coinsWord')} size="xl" />

        <Box minH="4.5rem" display="flex" flexDirection="column" justifyContent="flex-end" gap="3">
          <RewardAction {...props} />
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

/** The claim button, the "claimed" confirmation, or the countdown to the next claim. */
function RewardAction({
  palette,
  claimable,
  countdown,
  claimLabel,
  claiming,
  confirmation,
  onClaim,
}: RewardCardProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  return confirmation ? (
    <HStack
      role="status"
      bg="green.subtle"
      color="green.fg"
      borderWidth="1px"
      borderColor="green.muted"
      borderRadius="xl"
      px="4"
      py="3"
      gap="2.5"
      minH="4.5rem"
    >
      <Icon as={LuCircleCheck} boxSize="5" />
      <Stack gap="0">
        <Text fontWeight="semibold">{t('rewards.claimedShort')}</Text>
        <Text textStyle="sm">{t('rewards.added', { coins: formatMoneyText(confirmation, locale) })}</Text>
      </Stack>
    </HStack>
  ) : claimable ? (
    <Button
      size="lg"
      borderRadius="xl"
      colorPalette={palette}
      loading={claiming}
      loadingText={t('rewards.claiming')}
      onClick={onClaim}
    >
      {claimLabel}
    </Button>
  ) : (
    <>
      <HStack gap="2" color="fg.muted" textStyle="sm">
        <Icon as={LuClock} />
        <Text>
          {t('rewards.nextIn')}{' '}
          <Text
            as="span"
            color="fg"
            fontWeight="semibold"
            fontVariantNumeric="tabular-nums"
            data-testid="countdown"
          >
            {countdown}
          </Text>
        </Text>
      </HStack>
      <Button size="lg" borderRadius="xl" variant="subtle" disabled>
        {t('rewards.comeBackLater')}
      </Button>
    </>
  );
}

import { Alert, SimpleGrid, Spinner, Text, VStack } from '@chakra-ui/react';
import type { RewardStatus } from '@shared/api-types.ts';
import { REWARDS, REWARD_TYPES, type RewardType } from '@shared/rewards-constants.ts';
import { formatCents } from '@shared/money.ts';
import { useEffect, useRef, useState } from 'react';
import type { IconType } from 'react-icons';
import { LuCalendarCheck, LuClock, LuZap } from 'react-icons/lu';
import { PageHeader } from '../components/page-header.tsx';
import { formatHoursMinutes, formatMinutes } from '../features/rewards/format-countdown.ts';
import { RewardCard } from '../features/rewards/reward-card.tsx';
import { DailyStreak } from '../features/rewards/daily-streak.tsx';
import { useClaimReward } from '../features/rewards/use-claim-reward.ts';
import { useNow } from '../features/rewards/use-now.ts';
import { useRewardStatus } from '../features/rewards/use-reward-status.ts';
import { errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toaster.tsx';
import { useHydrated } from '../lib/use-hydrated.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { ErrorState } from '../components/error-state.tsx';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useLocale } from '../lib/i18n.ts';
import { formatMoneyText } from '@shared/i18n/index.ts';

const HOUR_MS = 60 * 60 * 1000;
const CONFIRMATION_MS = 3000;

const CARDS: Record<
  RewardType,
  {
    testId: string;
    icon: IconType;
    palette: 'brand' | 'purple' | 'gold';
    format: (ms: number, t: TFunction) => string;
    hoursKey: keyof RewardStatus;
  }
> = {
  regular: {
    testId: 'hourly',
    icon: LuClock,
    palette: 'brand',
    format: formatMinutes,
    hoursKey: 'regularHoursRemaining',
  },
  bonus: {
    testId: 'bonus',
    icon: LuZap,
    palette: 'purple',
    format: formatHoursMinutes,
    hoursKey: 'bonusHoursRemaining',
  },
  daily: {
    testId: 'daily',
    icon: LuCalendarCheck,
    palette: 'gold',
    format: formatHoursMinutes,
    hoursKey: 'dailyHoursRemaining',
  },
};

export default function RewardsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('nav.rewards'), t('rewards.metaDescription'));
  const texts = useRewardTexts();
  const { data: status, dataUpdatedAt, isLoading, isError, refetch } = useRewardStatus();
  const { claim, confirmations, onClaim } = useClaimWithConfirmation(texts);
  // The countdown ticks locally from the fetched status: due = fetch time + hours remaining.
  const dueAt = (type: RewardType) =>
    status ? dataUpdatedAt + Number(status[CARDS[type].hoursKey]) * HOUR_MS : 0;
  const anyWaiting = status ? REWARD_TYPES.some((type) => dueAt(type) > dataUpdatedAt) : false;
  const ticking = useNow(anyWaiting);
  // Server-rendered (decision 031): until hydrated the countdowns read as of the status's own time, on the
  // server and in the browser's first pass alike, so the markup matches; the clock takes over after.
  const now = useHydrated() ? ticking : dataUpdatedAt;
  const remaining = (type: RewardType) => Math.max(0, dueAt(type) - Math.max(now, dataUpdatedAt));

  const allClaimed = status !== undefined && REWARD_TYPES.every((type) => remaining(type) > 0);

  return (
    <>
      <PageHeader title={t('nav.rewards')} subtitle={t('rewards.subtitle')} />
      {isLoading ? (
        <VStack py="16" gap="3" color="fg.muted">
          <Spinner color="brand.fg" size="lg" />
          <Text>{t('rewards.loading')}</Text>
        </VStack>
      ) : isError || !status ? (
        <ErrorState title={t('rewards.loadFailed')} onRetry={() => void refetch()} />
      ) : (
        <VStack align="stretch" gap={{ base: '5', md: '6' }}>
          {allClaimed ? (
            <Alert.Root status="success" variant="surface" borderRadius="xl" data-testid="all-claimed">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title fontWeight="semibold">{t('rewards.allClaimed')}</Alert.Title>
                <Alert.Description>{t('rewards.allClaimedText')}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : null}
          <SimpleGrid columns={{ base: 1, md: 3 }} gap={{ base: '4', md: '5' }}>
            {REWARD_TYPES.map((type) => {
              const card = CARDS[type];
              const left = remaining(type);
              return (
                <RewardCard
                  key={type}
                  testId={card.testId}
                  title={texts[type].title}
                  cadence={texts[type].cadence}
                  amount={formatCents(REWARDS[type].cents)}
                  icon={card.icon}
                  palette={card.palette}
                  claimable={left === 0}
                  countdown={left > 0 ? card.format(left, t) : null}
                  claimLabel={texts[type].claimLabel}
                  claiming={claim.isPending && claim.variables === type}
                  confirmation={confirmations[type] ?? null}
                  onClaim={() => onClaim(type)}
                />
              );
            })}
          </SimpleGrid>
          <DailyStreak current={status.dailyStreak ?? 0} best={status.bestDailyStreak ?? 0} />
        </VStack>
      )}
    </>
  );
}

/** Each card's texts, written out per type so every key stays visible to the catalogue test. */
function useRewardTexts() {
  const { t } = useTranslation();
  return {
    regular: {
      title: t('rewards.hourly.title'),
      cadence: t('rewards.hourly.cadence'),
      claimLabel: t('rewards.hourly.claim'),
      toastTitle: t('rewards.hourly.claimed'),
    },
    bonus: {
      title: t('rewards.bonus.title'),
      cadence: t('rewards.bonus.cadence'),
      claimLabel: t('rewards.bonus.claim'),
      toastTitle: t('rewards.bonus.claimed'),
    },
    daily: {
      title: t('rewards.daily.title'),
      cadence: t('rewards.daily.cadence'),
      claimLabel: t('rewards.daily.claim'),
      toastTitle: t('rewards.daily.claimed'),
    },
  } satisfies Record<RewardType, Record<string, string>>;
}

/** Claim, with its toast and the card's few-seconds "claimed" confirmation. */
function useClaimWithConfirmation(texts: Record<RewardType, { toastTitle: string }>) {
  const { t } = useTranslation();
  const locale = useLocale();
  const claim = useClaimReward();
  const [confirmations, setConfirmations] = useState<Partial<Record<RewardType, string>>>({});
  const timers = useRef(new Map<RewardType, number>());

  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach((id) => window.clearTimeout(id));
  }, []);

  const onClaim = (type: RewardType) => {
    claim.mutate(type, {
      onSuccess: ({ earned }) => {
        toast({
          title: texts[type].toastTitle,
          description: t('rewards.added', { coins: formatMoneyText(earned, locale) }),
          variant: 'success',
        });
        setConfirmations((prev) => ({ ...prev, [type]: earned }));
        window.clearTimeout(timers.current.get(type));
        timers.current.set(
          type,
          window.setTimeout(() => setConfirmations(({ [type]: _done, ...rest }) => rest), CONFIRMATION_MS),
        );
      },
      onError: (err) => {
        toast({
          title: t('common.error'),
          description: errorMessage(err, t('rewards.failed')),
          variant: 'destructive',
        });
      },
    });
  };
  return { claim, confirmations, onClaim };
}

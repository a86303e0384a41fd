import { Box, Button, Flex, Separator, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { formatCents } from '../../lib/format.ts';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { rewardText, type CampaignKind } from '@shared/campaign-kinds.ts';

export interface SummaryRow {
  label: string;
  value: ReactNode;
}

/** The whole-coin amount a submit form starts at: 10, but never more than the balance pays for (min 3). */
export function defaultSpend(balanceCents: number, preferred = 10, minimum = 3): number {
  return Math.max(minimum, Math.min(preferred, Math.floor(balanceCents / 100)));
}

/**
 * A small "what you get" box under a submit form; with `balance`, the cost against the balance before
 * Submit: the balance and what is left after it (red, "Not enough coins", when it cannot be paid).
 */
export function CostSummary({
  rows,
  balance,
}: {
  rows: SummaryRow[];
  balance?: { balanceCents: number; costCents: number };
}) {
  const { t } = useTranslation();
  const left = balance ? balance.balanceCents - balance.costCents : 0;
  return (
    <Box bg="bg.subtle" borderWidth="1px" borderColor="border" borderRadius="lg" px="4" py="3">
      {rows.map((row) => (
        <Flex key={row.label} justify="space-between" gap="3" py="1" textStyle="sm">
          <Text color="fg.muted">{row.label}</Text>
          <Box fontWeight="semibold" textAlign="right">
            {row.value}
          </Box>
        </Flex>
      ))}
      {balance ? (
        <>
          <Separator my="2" />
          <Flex justify="space-between" gap="3" py="1" textStyle="sm">
            <Text color="fg.muted">{t('submit.balance')}</Text>
            <Box fontWeight="semibold" textAlign="right">
              <CoinAmount value={formatCents(balance.balanceCents)} size="sm" />
            </Box>
          </Flex>
          <Flex justify="space-between" gap="3" py="1" textStyle="sm" data-testid="balance-after">
            <Text color="fg.muted">{t('submit.summary.leftAfter')}</Text>
            <Box fontWeight="semibold" textAlign="right" color={left < 0 ? 'red.fg' : undefined}>
              {left < 0 ? t('submit.summary.notEnough') : <CoinAmount value={formatCents(left)} size="sm" />}
            </Box>
          </Flex>
        </>
      ) : null}
    </Box>
  );
}

/** Members you get, what each earns per join, and the cost in coins (by default one a member). */
export function memberCostRows(
  t: TFunction,
  members: number,
  kind: CampaignKind,
  costCoins = members,
): SummaryRow[] {
  return [
    { label: t('submit.summary.membersYouGet'), value: members },
    { label: t('submit.summary.earnPerJoin'), value: <CoinAmount value={rewardText(kind)} size="sm" /> },
    { label: t('submit.summary.cost'), value: <CoinAmount value={costCoins} size="sm" /> },
  ];
}

/**
 * The end of a submit form: what the coins buy against the balance, why the balance cannot pay it
 * (`refusal`, which also disables Submit), and Submit.
 */
export function SpendAndSubmit({
  rows,
  balanceCents,
  costCents,
  refusal,
  palette = 'brand',
  pending,
  loadingText,
  children,
}: {
  rows: SummaryRow[];
  balanceCents: number;
  costCents: number;
  refusal: string | null;
  palette?: 'brand' | 'gold';
  pending: boolean;
  loadingText: string;
  children: ReactNode;
}) {
  return (
    <>
      <CostSummary rows={rows} balance={{ balanceCents, costCents }} />
      {refusal !== null ? (
        <Text textStyle="sm" color="red.fg" role="status">
          {refusal}
        </Text>
      ) : null}
      <Button
        type="submit"
        colorPalette={palette}
        size="lg"
        disabled={refusal !== null}
        loading={pending}
        loadingText={loadingText}
      >
        {children}
      </Button>
    </>
  );
}

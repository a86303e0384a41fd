import { Stack, Text } from '@chakra-ui/react';
import {
  CAMPAIGN_MESSAGES,
  MIN_CAMPAIGN_COINS,
  insufficientForTopUp,
  parseMemberCount,
} from '@shared/campaign-schemas.ts';
import { formatCents } from '@shared/money.ts';
import { useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { ActionDialog } from '../../components/dialog-shell.tsx';
import { CostSummary } from './cost-summary.tsx';
import { WholeNumberField } from './form-fields.tsx';
import { costPerSlotCents, type TopUpTarget } from './top-up-target.ts';
import { useTopUp } from './use-top-up.ts';

// The "Add members" dialog (top-up-dialog.tsx's button opens it). Its own chunk: it validates with the
// shared zod schemas, which a page that only shows the button (Dashboard) does not load (issue 32 item 5).

export function TopUpDialog({
  campaign,
  balanceCents,
  onClose,
}: {
  campaign: TopUpTarget;
  balanceCents: number;
  onClose: () => void;
}) {
  const [value, setValue] = useState('10');
  const { t } = useTranslation();
  const [error, setError] = useState<string | undefined>();
  const topUp = useTopUp({ onSuccess: onClose });
  const members = parseMemberCount(value);
  const costCents = (members ?? 0) * costPerSlotCents(campaign.kind);
  const affordable = members !== null && costCents <= balanceCents;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (members === null) return setError(CAMPAIGN_MESSAGES.memberCount);
    if (!affordable) return setError(insufficientForTopUp(members, formatCents(balanceCents)));
    setError(undefined);
    topUp.mutate({ campaignId: campaign.id, members });
  }

  return (
    <ActionDialog
      title={t('campaigns.topUp.button')}
      onClose={onClose}
      pending={topUp.isPending}
      form={{ onSubmit, 'aria-label': t('campaigns.topUp.label', { name: campaign.name }) }}
      cancelLabel={t('campaigns.topUp.close')}
      confirmLabel={
        members === null ? t('campaigns.topUp.button') : t('campaigns.topUp.addN', { count: members })
      }
      confirm={{
        type: 'submit',
        colorPalette: 'brand',
        disabled: !affordable,
        loadingText: t('campaigns.topUp.adding'),
      }}
    >
      <Stack gap="4">
        <Text color="fg.muted" textStyle="sm">
          <Trans
            i18nKey="campaigns.topUp.intro"
            values={{ name: campaign.name }}
            components={{ strong: <Text as="strong" color="fg" /> }}
          />
        </Text>
        <WholeNumberField
          id="top-up-members"
          name="members"
          label={t('campaigns.topUp.members')}
          value={value}
          onChange={(v) => {
            setValue(v);
            setError(undefined);
          }}
          error={error}
          helper={t('campaigns.topUp.helper', { min: MIN_CAMPAIGN_COINS })}
        />
        <TopUpCost members={members} costCents={costCents} balanceCents={balanceCents} />
      </Stack>
    </ActionDialog>
  );
}

/** The cost of the members typed, the balance, and what is left after (or why it cannot be paid). */
function TopUpCost({
  members,
  costCents,
  balanceCents,
}: {
  members: number | null;
  costCents: number;
  balanceCents: number;
}) {
  const { t } = useTranslation();
  const affordable = members !== null && costCents <= balanceCents;
  return (
    <CostSummary
      rows={[
        {
          label: t('campaigns.topUp.cost'),
          value: <CoinAmount value={formatCents(costCents)} size="sm" />,
        },
        {
          label: t('campaigns.topUp.balance'),
          value: <CoinAmount value={formatCents(balanceCents)} size="sm" />,
        },
        {
          label: t('campaigns.topUp.after'),
          value: affordable ? (
            <CoinAmount value={formatCents(balanceCents - costCents)} size="sm" />
          ) : (
            <Text as="span" color="red.fg">
              {members === null ? '—' : t('campaigns.topUp.notEnough')}
            </Text>
          ),
        },
      ]}
    />
  );
}

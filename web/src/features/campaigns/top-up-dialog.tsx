import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { CAMPAIGN_KIND_RULES } from '@shared/campaign-kinds.ts';
import {
  CAMPAIGN_MESSAGES,
  MIN_CAMPAIGN_COINS,
  insufficientForTopUp,
  parseMemberCount,
} from '@shared/campaign-schemas.ts';
import { formatCents, parseMoney } from '@shared/money.ts';
import { useState, type FormEvent } from 'react';
import { LuUserPlus } from 'react-icons/lu';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { useAuth } from '../../lib/use-auth.ts';
import { CostSummary } from './cost-summary.tsx';
import { WholeNumberField } from './form-fields.tsx';
import { useTopUp } from './use-top-up.ts';
import { Trans, useTranslation } from 'react-i18next';

// Issue 31 item 4: "Add members" on a campaign card. The cost is shown against the balance and the
// button is disabled when it cannot be paid; the server decides (POST /api/campaigns/:id/top-up).

export interface TopUpTarget {
  id: string;
  name: string;
  kind: 'regular' | 'featured' | 'nobot';
}

function costPerSlotCents(kind: TopUpTarget['kind']): number {
  return CAMPAIGN_KIND_RULES[kind === 'nobot' ? 'nobot' : 'regular'].costPerSlotCents;
}

/** The card's "Add members" button and its dialog. */
export function TopUpButton({ campaign }: { campaign: TopUpTarget }) {
  const { user } = useAuth();
  const balanceCents = parseMoney(user?.coins ?? '0.00') ?? 0;
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  const minimumCents = MIN_CAMPAIGN_COINS * costPerSlotCents(campaign.kind);
  const cannotPay = balanceCents < minimumCents;
  return (
    <>
      <Button
        size="sm"
        variant="outline"
        colorPalette="brand"
        onClick={() => setOpen(true)}
        disabled={cannotPay}
        aria-label={t('campaigns.topUp.label', { name: campaign.name })}
        title={cannotPay ? t('campaigns.topUp.needCoins', { coins: MIN_CAMPAIGN_COINS }) : undefined}
        data-top-up=""
      >
        <LuUserPlus /> {t('campaigns.topUp.button')}
      </Button>
      {open ? (
        <TopUpDialog campaign={campaign} balanceCents={balanceCents} onClose={() => setOpen(false)} />
      ) : null}
    </>
  );
}

// eslint-disable-next-line max-lines-per-function -- a dialog whose texts move to t() in parallel (wave3s12-webi18n); split after that merge (notes-funcs.md)
function TopUpDialog({
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
  const balanceText = formatCents(balanceCents);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (members === null) return setError(CAMPAIGN_MESSAGES.memberCount);
    if (!affordable) return setError(insufficientForTopUp(members, balanceText));
    setError(undefined);
    topUp.mutate({ campaignId: campaign.id, members });
  }

  return (
    <Dialog.Root
      open
      onOpenChange={(e) => {
        if (!e.open && !topUp.isPending) onClose();
      }}
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
    >
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" backdropFilter="blur(2px)" />
        <Dialog.Positioner px="4">
          <Dialog.Content bg="bg.panel" borderWidth="1px" borderColor="border.emphasized" borderRadius="2xl">
            <form
              onSubmit={onSubmit}
              noValidate
              aria-label={t('campaigns.topUp.label', { name: campaign.name })}
            >
              <Dialog.Header>
                <Dialog.Title>{t('campaigns.topUp.button')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
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
                  <CostSummary
                    rows={[
                      {
                        label: t('campaigns.topUp.cost'),
                        value: <CoinAmount value={formatCents(costCents)} size="sm" />,
                      },
                      {
                        label: t('campaigns.topUp.balance'),
                        value: <CoinAmount value={balanceText} size="sm" />,
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
                </Stack>
              </Dialog.Body>
              <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
                <Dialog.ActionTrigger asChild>
                  <Button variant="outline" disabled={topUp.isPending}>
                    {t('campaigns.topUp.close')}
                  </Button>
                </Dialog.ActionTrigger>
                <Button
                  type="submit"
                  colorPalette="brand"
                  disabled={!affordable}
                  loading={topUp.isPending}
                  loadingText={t('campaigns.topUp.adding')}
                >
                  {members === null
                    ? t('campaigns.topUp.button')
                    : t('campaigns.topUp.addN', { count: members })}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

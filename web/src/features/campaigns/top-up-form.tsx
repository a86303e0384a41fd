import { Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import {
  CAMPAIGN_MESSAGES,
  MIN_CAMPAIGN_COINS,
  insufficientForTopUp,
  parseMemberCount,
} from '@shared/campaign-schemas.ts';
import { formatCents } from '@shared/money.ts';
import { useState, type FormEvent } from 'react';
import { CoinAmount } from '../../components/coin-amount.tsx';
import { CostSummary } from './cost-summary.tsx';
import { WholeNumberField } from './form-fields.tsx';
import { costPerSlotCents, type TopUpTarget } from './top-up-target.ts';
import { useTopUp } from './use-top-up.ts';
import { Trans, useTranslation } from 'react-i18next';

// The "Add members" dialog (top-up-dialog.tsx's button opens it). Its own chunk: it validates with the
// shared zod schemas, which a page that only shows the button (Dashboard) does not load (issue 32 item 5).

// eslint-disable-next-line max-lines-per-function -- one form's markup (field, cost rows, actions) kept whole while it moved to its own lazy chunk this session; to be split like the other dialogs
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

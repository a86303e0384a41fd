import { Box, List, Text } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { Trans, useTranslation } from 'react-i18next';
import { LuTriangleAlert } from 'react-icons/lu';
import { ActionDialog } from '../../components/dialog-shell.tsx';
import { useCancelCampaign } from './use-cancel-campaign.ts';

/** What cancelling costs, in the order the dialog warns of it. */
const WARNINGS = [
  { textKey: 'campaigns.cancel.noRefund' },
  { textKey: 'campaigns.cancel.loseSlots' },
  { textKey: 'campaigns.cancel.noUndo' },
] as const;

/** "Cancel Campaign?" confirmation; closes itself after a successful cancel. */
export function CancelCampaignDialog({
  campaign,
  open,
  onClose,
  onCanceled,
}: {
  /** Kept while the dialog animates out, so the name does not vanish mid-close. */
  campaign: ApiCampaign | null;
  open: boolean;
  onClose: () => void;
  /** After a successful cancel (the page then moves focus to a sensible neighbour). */
  onCanceled?: (campaignId: string) => void;
}) {
  const { t } = useTranslation();
  const cancel = useCancelCampaign({
    onSuccess: (campaignId) => {
      onClose();
      onCanceled?.(campaignId);
    },
  });
  return (
    <ActionDialog
      title={t('campaigns.cancel.title')}
      open={open}
      onClose={onClose}
      pending={cancel.isPending}
      alert
      cancelLabel={t('campaigns.cancel.keep')}
      confirmLabel={t('campaigns.cancel.confirm')}
      confirm={{
        colorPalette: 'red',
        loadingText: t('campaigns.cancel.canceling'),
        onClick: () => campaign && cancel.mutate(campaign.id),
      }}
    >
      <Text color="fg.muted" mb="4">
        <Trans
          i18nKey="campaigns.cancel.about"
          values={{ name: campaign?.name ?? '' }}
          components={{ strong: <Text as="strong" color="fg" /> }}
        />
      </Text>
      <Box bg="red.subtle" borderWidth="1px" borderColor="red.muted" borderRadius="lg" p="4" color="red.fg">
        <List.Root gap="2" variant="plain" textStyle="sm">
          {WARNINGS.map(({ textKey }) => (
            <List.Item key={textKey}>
              <List.Indicator asChild>
                <LuTriangleAlert />
              </List.Indicator>
              {t(textKey)}
            </List.Item>
          ))}
        </List.Root>
      </Box>
    </ActionDialog>
  );
}

import { Box, Button, Dialog, List, Portal, Text } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { LuTriangleAlert } from 'react-icons/lu';
import { useCancelCampaign } from './use-cancel-campaign.ts';
import { Trans, useTranslation } from 'react-i18next';

/** "Cancel Campaign?" confirmation; closes itself after a successful cancel. */
// eslint-disable-next-line max-lines-per-function -- a dialog whose texts move to t() in parallel (wave3s12-webi18n); split after that merge (notes-funcs.md)
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
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open && !cancel.isPending) onClose();
      }}
      role="alertdialog"
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
    >
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.700" backdropFilter="blur(2px)" />
        <Dialog.Positioner px="4">
          <Dialog.Content bg="bg.panel" borderWidth="1px" borderColor="border.emphasized" borderRadius="2xl">
            <Dialog.Header>
              <Dialog.Title>{t('campaigns.cancel.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted" mb="4">
                <Trans
                  i18nKey="campaigns.cancel.about"
                  values={{ name: campaign?.name ?? '' }}
                  components={{ strong: <Text as="strong" color="fg" /> }}
                />
              </Text>
              <Box
                bg="red.subtle"
                borderWidth="1px"
                borderColor="red.muted"
                borderRadius="lg"
                p="4"
                color="red.fg"
              >
                <List.Root gap="2" variant="plain" textStyle="sm">
                  <List.Item>
                    <List.Indicator asChild>
                      <LuTriangleAlert />
                    </List.Indicator>
                    {t('campaigns.cancel.noRefund')}
                  </List.Item>
                  <List.Item>
                    <List.Indicator asChild>
                      <LuTriangleAlert />
                    </List.Indicator>
                    {t('campaigns.cancel.loseSlots')}
                  </List.Item>
                  <List.Item>
                    <List.Indicator asChild>
                      <LuTriangleAlert />
                    </List.Indicator>
                    {t('campaigns.cancel.noUndo')}
                  </List.Item>
                </List.Root>
              </Box>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={cancel.isPending}>
                  {t('campaigns.cancel.keep')}
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette="red"
                loading={cancel.isPending}
                loadingText={t('campaigns.cancel.canceling')}
                onClick={() => campaign && cancel.mutate(campaign.id)}
              >
                {t('campaigns.cancel.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

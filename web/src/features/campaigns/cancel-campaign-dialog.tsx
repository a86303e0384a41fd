import { Box, Button, Dialog, List, Portal, Text } from '@chakra-ui/react';
import type { ApiCampaign } from '@shared/api-types.ts';
import { LuTriangleAlert } from 'react-icons/lu';
import { useCancelCampaign } from './use-cancel-campaign.ts';

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
              <Dialog.Title>Cancel Campaign?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted" mb="4">
                You are about to cancel{' '}
                <Text as="strong" color="fg">
                  {campaign?.name}
                </Text>
                .
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
                    Nothing will be refunded for this server
                  </List.Item>
                  <List.Item>
                    <List.Indicator asChild>
                      <LuTriangleAlert />
                    </List.Indicator>
                    You will lose all remaining member slots
                  </List.Item>
                  <List.Item>
                    <List.Indicator asChild>
                      <LuTriangleAlert />
                    </List.Indicator>
                    You cannot undo this action
                  </List.Item>
                </List.Root>
              </Box>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={cancel.isPending}>
                  No, Keep Campaign
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette="red"
                loading={cancel.isPending}
                loadingText="Canceling..."
                onClick={() => campaign && cancel.mutate(campaign.id)}
              >
                Yes, Cancel Campaign
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

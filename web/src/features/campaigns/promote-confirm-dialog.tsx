import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { PROMOTE_COST_COINS } from '@shared/campaign-schemas.ts';

/**
 * Promote spends 100 coins in one click, and the spec's Dashboard has no confirmation for it: ask
 * first, say what it costs and what the balance will be. Focus returns to the Promote button on close.
 */
export function PromoteConfirmDialog({
  serverName,
  balanceCents,
  open,
  pending,
  onConfirm,
  onClose,
}: {
  serverName: string | null;
  balanceCents: number;
  open: boolean;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const after = ((balanceCents - PROMOTE_COST_COINS * 100) / 100).toFixed(2);
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open && !pending) onClose();
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
              <Dialog.Title>Promote {serverName}?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">
                Featuring this server costs{' '}
                <Text as="strong" color="fg">
                  {PROMOTE_COST_COINS} coins
                </Text>{' '}
                and includes {PROMOTE_COST_COINS} member slots. Your balance will be {after} coins. Coins
                spent on a promotion are not refunded.
              </Text>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" colorPalette="gray" disabled={pending}>
                  Not now
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="gold" onClick={onConfirm} loading={pending} loadingText="Promoting...">
                Promote for {PROMOTE_COST_COINS} coins
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

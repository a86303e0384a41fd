import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { PROMOTION } from '@shared/campaign-kinds.ts';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../lib/i18n.ts';
import { formatMoney } from '@shared/i18n/index.ts';

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
  const { t } = useTranslation();
  const locale = useLocale();
  const after = formatMoney(balanceCents - PROMOTION.costCoins * 100, locale);
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
              <Dialog.Title>{t('promote.title', { name: serverName })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">
                {t('promote.costs')}{' '}
                <Text as="strong" color="fg">
                  {t('common.coins', { count: PROMOTION.costCoins })}
                </Text>{' '}
                {t('promote.details', { slots: PROMOTION.costCoins, after })}
              </Text>
            </Dialog.Body>
            <Dialog.Footer flexDirection={{ base: 'column-reverse', sm: 'row' }} alignItems="stretch">
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" colorPalette="gray" disabled={pending}>
                  {t('common.notNow')}
                </Button>
              </Dialog.ActionTrigger>
              <Button
                colorPalette="gold"
                onClick={onConfirm}
                loading={pending}
                loadingText={t('promote.pending')}
              >
                {t('promote.confirm', { count: PROMOTION.costCoins })}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

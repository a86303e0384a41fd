import { Text } from '@chakra-ui/react';
import { PROMOTION } from '@shared/campaign-kinds.ts';
import { useTranslation } from 'react-i18next';
import { ActionDialog } from '../../components/dialog-shell.tsx';
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
    <ActionDialog
      title={t('promote.title', { name: serverName })}
      open={open}
      onClose={onClose}
      pending={pending}
      alert
      cancelLabel={t('common.notNow')}
      confirmLabel={t('promote.confirm', { count: PROMOTION.costCoins })}
      confirm={{ colorPalette: 'gold', onClick: onConfirm, loadingText: t('promote.pending') }}
    >
      <Text color="fg.muted">
        {t('promote.costs')}{' '}
        <Text as="strong" color="fg">
          {t('common.coins', { count: PROMOTION.costCoins })}
        </Text>{' '}
        {t('promote.details', { slots: PROMOTION.costCoins, after })}
      </Text>
    </ActionDialog>
  );
}

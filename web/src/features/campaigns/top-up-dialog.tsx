import { Button } from '@chakra-ui/react';
import { MIN_CAMPAIGN_COINS } from '@shared/campaign-kinds.ts';
import { parseMoney } from '@shared/money.ts';
import { lazy, Suspense, useState } from 'react';
import { LuUserPlus } from 'react-icons/lu';
import { useAuth } from '../../lib/use-auth.ts';
import { useTranslation } from 'react-i18next';
import { costPerSlotCents, type TopUpTarget } from './top-up-target.ts';

export type { TopUpTarget };

// Issue 31 item 4: "Add members" on a campaign card. The cost is shown against the balance and the
// button is disabled when it cannot be paid; the server decides (POST /api/campaigns/:id/top-up).

// The dialog validates with the shared zod schemas (about 30 kB gzip with the form fields): in the lazily
// loaded dialogs' chunk (campaign-dialogs.ts), fetched when the pointer or focus reaches the button, so
// Dashboard's first load carries no zod.
const loadTopUpForm = () => import('./campaign-dialogs.ts');
const TopUpDialog = lazy(() => loadTopUpForm().then((module) => ({ default: module.TopUpDialog })));
const preloadTopUpForm = () => void loadTopUpForm().catch(() => undefined);

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
        onPointerEnter={preloadTopUpForm}
        onFocus={preloadTopUpForm}
        disabled={cannotPay}
        aria-label={t('campaigns.topUp.label', { name: campaign.name })}
        title={cannotPay ? t('campaigns.topUp.needCoins', { coins: MIN_CAMPAIGN_COINS }) : undefined}
        data-top-up=""
      >
        <LuUserPlus /> {t('campaigns.topUp.button')}
      </Button>
      {open ? (
        <Suspense fallback={null}>
          <TopUpDialog campaign={campaign} balanceCents={balanceCents} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}

import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { usePageHydrated } from '../../lib/page-hydrated.ts';
import { toast } from '../../lib/toaster.tsx';
import { CHECKOUT_TEXT } from './checkout-text.ts';
import { paymentOutcome, syncedPaymentToast } from './payment-outcome.ts';
import { useSyncPayment } from './use-sync-payment.ts';

const STRIPE_PARAMS = ['payment_intent', 'payment_intent_client_secret', 'redirect_status'];

/**
 * Stripe sends the browser back to /dashboard?payment_intent=pi_...&payment_intent_client_secret=...
 * &redirect_status=succeeded|processing|failed after a redirect-based payment method. Mounted once in
 * the app shell: it asks the server to sync that payment (credits exactly once, even if the webhook
 * already did), refreshes the balance, tells the user what the payment's status really is (added,
 * processing, or failed with the reason) and removes the Stripe parameters from the address bar.
 */
export function usePaymentReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSyncPayment();
  const handled = useRef<string | null>(null);
  // The synced payment changes the balance: not before the page has hydrated (lib/page-hydrated.ts).
  const pageHydrated = usePageHydrated();

  useEffect(() => {
    if (!pageHydrated || location.pathname !== '/dashboard') return;
    const params = new URLSearchParams(location.search);
    const paymentIntentId = params.get('payment_intent');
    if (!paymentIntentId || handled.current === paymentIntentId) return;
    handled.current = paymentIntentId;
    const redirectStatus = params.get('redirect_status');
    mutate(paymentIntentId, {
      // The server's answer comes from Stripe; the URL's redirect_status only helps when it cannot answer.
      onSuccess: (result) => toast(syncedPaymentToast(result)),
      onError: () => {
        if (redirectStatus === 'failed') toast(paymentOutcome('requires_payment_method', null).toast);
        else
          toast({ title: CHECKOUT_TEXT.unconfirmedTitle, description: CHECKOUT_TEXT.unconfirmedDescription });
      },
    });
    for (const key of STRIPE_PARAMS) params.delete(key);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.pathname, location.search, mutate, navigate, pageHydrated]);
}

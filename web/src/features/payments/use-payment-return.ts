import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { useSyncPayment } from './use-sync-payment.ts';

/**
 * Stripe sends the browser back to /dashboard?payment_intent=pi_...&payment_intent_client_secret=...
 * after a redirect-based payment method. Mounted once in the app shell: it asks the server to sync
 * that payment (credits exactly once, even if the webhook already did), refreshes the balance,
 * confirms with the success toast and removes the Stripe parameters from the address bar.
 */
export function usePaymentReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const { mutate } = useSyncPayment();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (location.pathname !== '/dashboard') return;
    const params = new URLSearchParams(location.search);
    const paymentIntentId = params.get('payment_intent');
    if (!paymentIntentId || handled.current === paymentIntentId) return;
    handled.current = paymentIntentId;
    mutate(paymentIntentId, {
      onSuccess: (result) => {
        if (result.credited) toast({ title: 'Payment Successful', description: 'Your coins have been added!' });
      },
    });
    for (const key of ['payment_intent', 'payment_intent_client_secret', 'redirect_status']) params.delete(key);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true });
  }, [location.pathname, location.search, mutate, navigate]);
}

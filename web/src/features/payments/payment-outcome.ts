import type { SyncPaymentResponse } from '@shared/payment-schemas.ts';
import type { ToastInput } from '../../lib/toaster.tsx';
import { CHECKOUT_TEXT } from './checkout-text.ts';

export type PaymentOutcome =
  | { kind: 'succeeded'; toast: ToastInput }
  | { kind: 'processing'; toast: ToastInput }
  | { kind: 'failed'; toast: ToastInput };

/**
 * What the user is told about a PaymentIntent's status (after confirming in the form, or on the return
 * from a redirect-based method). Only `succeeded` says the coins were added; `processing` (bank debits
 * and other delayed methods) says they arrive when the bank confirms; anything else did not pay.
 */
export function paymentOutcome(status: string, failureMessage: string | null): PaymentOutcome {
  switch (status) {
    case 'succeeded':
      return {
        kind: 'succeeded',
        toast: {
          title: CHECKOUT_TEXT.successTitle,
          description: CHECKOUT_TEXT.successDescription,
          variant: 'success',
        },
      };
    case 'processing':
      return {
        kind: 'processing',
        toast: { title: CHECKOUT_TEXT.processingTitle, description: CHECKOUT_TEXT.processingDescription },
      };
    case 'canceled':
      return failed(CHECKOUT_TEXT.canceledDescription);
    case 'requires_action':
      return failed(CHECKOUT_TEXT.authenticationDescription);
    default:
      return failed(failureMessage ?? CHECKOUT_TEXT.failedDescription);
  }
}

function failed(description: string): PaymentOutcome {
  return { kind: 'failed', toast: { title: CHECKOUT_TEXT.failedTitle, description, variant: 'destructive' } };
}

/** The toast for the server's sync answer: "added" only when the coins are really on the balance. */
export function syncedPaymentToast(result: SyncPaymentResponse): ToastInput {
  if (result.credited) return paymentOutcome('succeeded', null).toast;
  // Paid at Stripe but not credited here (yet): never claim the coins were added.
  if (result.status === 'succeeded')
    return { title: CHECKOUT_TEXT.unconfirmedTitle, description: CHECKOUT_TEXT.unconfirmedDescription };
  return paymentOutcome(result.status, result.failureMessage).toast;
}

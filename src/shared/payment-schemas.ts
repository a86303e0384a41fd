import { z } from 'zod';
import { isPackId, type PackId } from './packs.ts';

// Coin pack checkout (docs/spec/product-spec.md §7 POST /api/create-payment-intent), shared by the API and the web app.

export const UNKNOWN_PACKAGE_MESSAGE = 'Unknown coin package';
export const PAYMENTS_UNAVAILABLE_MESSAGE =
  'Payment processing is currently unavailable. Please contact support.';

/** POST /api/create-payment-intent */
export const createPaymentIntentSchema = z.object({
  packageType: z
    .string({ message: UNKNOWN_PACKAGE_MESSAGE })
    .refine((value): value is PackId => isPackId(value), { message: UNKNOWN_PACKAGE_MESSAGE }),
});

/** Product spec (docs/spec/product-spec.md) §3 "Payment intent response": price is a number of dollars (e.g. 10). */
export interface CreatePaymentIntentResponse {
  clientSecret: string;
  package: { coins: number; price: number };
}

/** POST /api/payments/:paymentIntentId/sync: path parameter. */
export const paymentIntentIdSchema = z
  .string()
  .regex(/^pi_[A-Za-z0-9]{1,200}$/, { message: 'Payment not found' });

export interface SyncPaymentResponse {
  /** Stripe's status of the PaymentIntent (succeeded, processing, requires_payment_method, ...). */
  status: string;
  /** True once the pack's coins are on the balance (by this call or an earlier webhook/sync). */
  credited: boolean;
  /** Stripe's reason when the last payment attempt failed (last_payment_error.message), else null. */
  failureMessage: string | null;
}

import { z } from 'zod';
import type { createPaymentIntentResponseSchema, syncPaymentResponseSchema } from './api-schemas.ts';
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
export type CreatePaymentIntentResponse = z.infer<typeof createPaymentIntentResponseSchema>;

/** POST /api/payments/:paymentIntentId/sync: path parameter. */
export const paymentIntentIdSchema = z
  .string()
  .regex(/^pi_[A-Za-z0-9]{1,200}$/, { message: 'Payment not found' });

export type SyncPaymentResponse = z.infer<typeof syncPaymentResponseSchema>;

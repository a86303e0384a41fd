import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import type { SyncPaymentResponse } from '../shared/payment-schemas.ts';
import { requireStripe } from './create-payment-intent.ts';
import { fulfilPaymentIntent } from './fulfil-payment.ts';
import { paymentsRepo } from './payments-repo.ts';
import type { Stripe } from './stripe-client.ts';

/**
 * Called by the web app after a confirmed payment (and on the return URL): asks Stripe for the
 * intent's state and fulfils under the same exactly-once key as the webhook, so whichever arrives
 * first credits the coins and the other changes nothing.
 */
export async function syncPayment(
  ctx: AppContext,
  userId: string,
  paymentIntentId: string,
): Promise<SyncPaymentResponse> {
  const stripe = requireStripe(ctx);
  const payment = await paymentsRepo(ctx.store.read).find(paymentIntentId);
  if (payment?.userId !== userId) throw new AppError('not_found', 'Payment not found');

  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(paymentIntentId);
  } catch (err) {
    ctx.logger.warn('stripe: retrieving a payment intent failed', {
      paymentIntentId,
      error: err instanceof Error ? err.message : String(err),
    });
    throw new AppError('upstream', 'Could not reach the payment provider. Please try again.');
  }
  // Stripe answered outside any transaction; fulfilment is a transaction of its own.
  const result = await fulfilPaymentIntent(ctx, intent, 'sync');
  return {
    status: intent.status,
    credited: result.fulfilled,
    failureMessage: intent.last_payment_error?.message ?? null,
  };
}

import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import type { SyncPaymentResponse } from '../shared/payment-schemas.ts';
import { requireStripe } from './create-payment-intent.ts';
import { fulfilPaymentIntent } from './fulfil-payment.ts';
import { paymentsRepo } from './payments-repo.ts';
import type { Stripe } from './stripe-client.ts';
import { errorMessage } from '../ops/error-text.ts';

/** Syncs under way in this process, per app context and payment intent (single flight). */
const inFlight = new WeakMap<object, Map<string, Promise<SyncPaymentResponse>>>();

/**
 * Called by the web app after a confirmed payment (and on the return URL): asks Stripe for the
 * intent's state and fulfils under the same exactly-once key as the webhook, so whichever arrives
 * first credits the coins and the other changes nothing.
 *
 * Stripe is asked only when the answer can change (issue 27 item 3): a payment already fulfilled
 * (succeeded, and whatever disputes or refunds followed) answers from the database, and concurrent
 * syncs of one intent in this process share one Stripe call. The route is also limited per user
 * (src/http/write-limits.ts, `payment`).
 */
export async function syncPayment(
  ctx: AppContext,
  userId: string,
  paymentIntentId: string,
): Promise<SyncPaymentResponse> {
  const stripe = requireStripe(ctx);
  const payment = await paymentsRepo(ctx.store.read).find(paymentIntentId);
  if (payment?.userId !== userId) throw new AppError('not_found', 'Payment not found');
  if (payment.fulfilledAt !== null) return { status: 'succeeded', credited: true, failureMessage: null };

  let running = inFlight.get(ctx);
  if (!running) inFlight.set(ctx, (running = new Map<string, Promise<SyncPaymentResponse>>()));
  const shared = running.get(paymentIntentId);
  if (shared) return shared;
  const sync = retrieveAndFulfil(ctx, stripe, paymentIntentId).finally(() => running.delete(paymentIntentId));
  running.set(paymentIntentId, sync);
  return sync;
}

async function retrieveAndFulfil(
  ctx: AppContext,
  stripe: Stripe,
  paymentIntentId: string,
): Promise<SyncPaymentResponse> {
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(paymentIntentId);
  } catch (err) {
    ctx.logger.warn('stripe: retrieving a payment intent failed', {
      paymentIntentId,
      error: errorMessage(err),
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

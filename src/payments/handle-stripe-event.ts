import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { PAYMENTS_UNAVAILABLE_MESSAGE } from '../shared/payment-schemas.ts';
import { fulfilPaymentIntent } from './fulfil-payment.ts';
import { reversePayment } from './reverse-payment.ts';
import type { Stripe } from './stripe-client.ts';

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Verifies a webhook delivery against the endpoint secret (raw body, Stripe-Signature header,
 * 5-minute tolerance measured on the app clock) and returns the event; anything off is a 400.
 */
export function verifyStripeEvent(ctx: AppContext, rawBody: unknown, signature: string | undefined): Stripe.Event {
  const secret = ctx.config.stripe.webhookSecret;
  if (!ctx.stripe || !secret) throw new AppError('unavailable', PAYMENTS_UNAVAILABLE_MESSAGE);
  if (!Buffer.isBuffer(rawBody) || rawBody.length === 0) throw new AppError('bad_request', 'Missing webhook payload');
  if (!signature) throw new AppError('bad_request', 'Missing Stripe-Signature header');
  try {
    return ctx.stripe.webhooks.constructEvent(rawBody, signature, secret, undefined, undefined, ctx.clock.now());
  } catch (err) {
    ctx.logger.warn('stripe: webhook signature verification failed', { error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
    throw new AppError('bad_request', 'Invalid Stripe signature');
  }
}

/** Applies one verified event. Events the product does not use are acknowledged and ignored. */
export function handleStripeEvent(ctx: AppContext, event: Stripe.Event): void {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      fulfilPaymentIntent(ctx, event.data.object, 'webhook');
      return;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return;
      reversePayment(ctx, {
        kind: 'refund',
        paymentIntentId,
        reference: `${charge.id}:${charge.amount_refunded}`,
        chargeAmount: charge.amount,
        currency: charge.currency,
        amount: charge.amount_refunded,
      });
      return;
    }
    case 'charge.dispute.created': {
      const dispute = event.data.object;
      const paymentIntentId = idOf(dispute.payment_intent);
      if (!paymentIntentId) return;
      reversePayment(ctx, {
        kind: 'dispute',
        paymentIntentId,
        reference: dispute.id,
        chargeAmount: null,
        currency: dispute.currency,
        amount: dispute.amount,
      });
      return;
    }
    default:
      ctx.logger.debug('stripe: ignored webhook event', { type: event.type, id: event.id });
  }
}

import type { AppContext } from '../context.ts';
import { AppError } from '../shared/errors.ts';
import { errorMessage } from '../ops/error-text.ts';
import { PAYMENTS_UNAVAILABLE_MESSAGE } from '../shared/payment-schemas.ts';
import { fulfilPaymentIntent } from './fulfil-payment.ts';
import { recordChargeRefunded, recordDispute, recordRefund, type RefundFacts } from './reverse-payment.ts';
import type { Stripe } from './stripe-client.ts';

/** The id of a Stripe reference, expanded or not. */
function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Verifies a webhook delivery against the endpoint secret (raw body, Stripe-Signature header,
 * 5-minute tolerance measured on the app clock) and returns the event; anything off is a 400.
 */
export function verifyStripeEvent(
  ctx: AppContext,
  rawBody: unknown,
  signature: string | undefined,
): Stripe.Event {
  const secret = ctx.config.stripe.webhookSecret;
  if (!ctx.stripe || !secret) throw new AppError('unavailable', PAYMENTS_UNAVAILABLE_MESSAGE);
  if (!Buffer.isBuffer(rawBody) || rawBody.length === 0)
    throw new AppError('bad_request', 'Missing webhook payload');
  if (!signature) throw new AppError('bad_request', 'Missing Stripe-Signature header');
  try {
    return ctx.stripe.webhooks.constructEvent(
      rawBody,
      signature,
      secret,
      undefined,
      undefined,
      ctx.clock.now(),
    );
  } catch (err) {
    ctx.logger.warn('stripe: webhook signature verification failed', {
      error: errorMessage(err).split('\n')[0],
    });
    throw new AppError('bad_request', 'Invalid Stripe signature');
  }
}

/** What a refund or a dispute says about its payment; null when it is not about a payment intent. */
export function reversalFacts<T extends Stripe.Refund | Stripe.Dispute>(
  object: T,
): { id: string; paymentIntentId: string; amount: number; currency: string; status: T['status'] } | null {
  const paymentIntentId = idOf(object.payment_intent);
  if (!paymentIntentId) return null;
  const { id, amount, currency, status } = object;
  return { id, paymentIntentId, amount, currency, status };
}

/**
 * The events to subscribe the endpoint to (README): payment_intent.succeeded, charge.refunded,
 * refund.created, refund.updated, refund.failed, charge.refund.updated and charge.dispute.*.
 */
export const HANDLED_EVENT_TYPES = [
  'payment_intent.succeeded',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'refund.failed',
  'charge.refund.updated',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'charge.dispute.closed',
] as const;

/** Applies one verified event. Events the product does not use are acknowledged and ignored. */
export async function handleStripeEvent(ctx: AppContext, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      await fulfilPaymentIntent(ctx, event.data.object, 'webhook');
      return;
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return;
      const listed = (charge.refunds?.data ?? [])
        .map(reversalFacts)
        .filter((r): r is RefundFacts => r !== null);
      await recordChargeRefunded(
        ctx,
        {
          paymentIntentId,
          chargeAmount: charge.amount,
          currency: charge.currency,
          amountRefunded: charge.amount_refunded,
        },
        listed,
      );
      return;
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const facts = reversalFacts(event.data.object);
      if (facts) await recordRefund(ctx, facts);
      return;
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
    case 'charge.dispute.closed': {
      const facts = reversalFacts(event.data.object);
      // Stripe's time of this state (the event's), so any delivery order converges (decision 048).
      if (facts) await recordDispute(ctx, { ...facts, at: event.created * 1000 });
      return;
    }
    default:
      ctx.logger.debug('stripe: ignored webhook event', { type: event.type, id: event.id });
  }
}

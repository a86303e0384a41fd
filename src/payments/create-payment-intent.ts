import type { AppContext } from '../context.ts';
import type { DataStore } from '../db/engine.ts';
import type { Payment } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { COIN_PACKS, type PackId } from '../shared/packs.ts';
import { PAYMENTS_UNAVAILABLE_MESSAGE, type CreatePaymentIntentResponse } from '../shared/payment-schemas.ts';
import { paymentsRepo } from './payments-repo.ts';
import { assertCanSpendIn } from './spend-guard.ts';
import type { Stripe } from './stripe-client.ts';
import { errorMessage } from '../ops/error-text.ts';

export const PAYMENT_IN_PROGRESS_MESSAGE =
  'This purchase is already in progress in another tab or window. Please wait a moment and try again.';

/**
 * Requests for the same user and pack within this window share one Stripe idempotency key, so a
 * double click (or React's double effect) yields one PaymentIntent instead of two.
 */
export const INTENT_IDEMPOTENCY_WINDOW_MS = 5 * 60 * 1000;
const MAX_KEY_ATTEMPTS = 5;

export function requireStripe(ctx: AppContext): Stripe {
  if (!ctx.stripe) throw new AppError('unavailable', PAYMENTS_UNAVAILABLE_MESSAGE);
  return ctx.stripe;
}

/**
 * The payments row (created) of a pack bought with this intent, once per intent id: the row as it stands
 * (a second call, or a row another user's request wrote, returns the first one).
 */
export function insertPackPayment(
  store: DataStore,
  intentId: string,
  userId: string,
  packId: PackId,
  createdAt: number,
): Promise<Payment> {
  const pack = COIN_PACKS[packId];
  return store.transaction((tx) =>
    paymentsRepo(tx).insertIfNew({
      id: intentId,
      userId,
      packId,
      amountCents: pack.priceCents,
      currency: 'usd',
      coins: pack.coins * 100,
      createdAt,
    }),
  );
}

function isKeyInUse(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { statusCode, code } = err as { statusCode?: unknown; code?: unknown };
  return code === 'idempotency_key_in_use' || statusCode === 409;
}

/**
 * Starts a card payment for a coin pack: a PaymentIntent for the pack's price (the server's table,
 * never the client's), with metadata that fulfilment checks later, and a `payments` row (created).
 */
export async function createPaymentIntent(
  ctx: AppContext,
  userId: string,
  packId: PackId,
): Promise<CreatePaymentIntentResponse> {
  const stripe = requireStripe(ctx);
  await assertCanSpendIn(ctx.store.read, userId);
  const pack = COIN_PACKS[packId];
  const bucket = Math.floor(ctx.clock.now() / INTENT_IDEMPOTENCY_WINDOW_MS);

  for (let attempt = 0; attempt < MAX_KEY_ATTEMPTS; attempt++) {
    const idempotencyKey = `coinsync:pi:${userId}:${packId}:${bucket}${attempt > 0 ? `:${attempt}` : ''}`;
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.create(
        {
          amount: pack.priceCents,
          currency: 'usd',
          automatic_payment_methods: { enabled: true },
          description: `${pack.name} (${pack.coins} coins)`,
          metadata: { userId, packId, coins: String(pack.coins) },
        },
        { idempotencyKey },
      );
    } catch (err) {
      // Stripe answers 409 idempotency_key_in_use while the same key's first request is still running
      // (two tabs opening checkout at once); the SDK retried already, so the other request holds it.
      if (isKeyInUse(err)) {
        ctx.logger.info('stripe: payment intent creation already in progress', { userId, packId });
        throw new AppError('conflict', PAYMENT_IN_PROGRESS_MESSAGE);
      }
      ctx.logger.warn('stripe: creating a payment intent failed', {
        userId,
        packId,
        error: errorMessage(err),
      });
      throw new AppError('upstream', 'Could not start the payment. Please try again.');
    }
    if (!intent.client_secret)
      throw new AppError('upstream', 'Could not start the payment. Please try again.');
    // Stripe answered (outside the transaction): the payments row, once per intent id.
    const payment = await insertPackPayment(ctx.store, intent.id, userId, packId, ctx.clock.now());
    if (payment.userId !== userId) throw new Error(`payment ${intent.id} belongs to another user`);
    // The key replays an intent from this window that was already paid: a new purchase needs a new one.
    if (payment.status === 'created' && payment.fulfilledAt === null) {
      return {
        clientSecret: intent.client_secret,
        package: { coins: pack.coins, price: pack.priceCents / 100 },
      };
    }
  }
  throw new AppError(
    'conflict',
    'Too many purchases in a short time. Please wait a few minutes and try again.',
  );
}

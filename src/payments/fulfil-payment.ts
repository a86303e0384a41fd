import { eq } from 'drizzle-orm';
import { formatCents } from '../shared/money.ts';
import { publishWithBalance } from '../events/publish.ts';
import type { AppContext } from '../context.ts';
import { payments, type Payment } from '../db/schema.ts';
import { creditPaymentOnce } from './payment-record.ts';

/** What fulfilment needs to know about a PaymentIntent, whether it came from a webhook or a retrieve. */
export interface IntentFacts {
  id: string;
  amount: number;
  currency: string;
  status: string;
  metadata: Record<string, string> | null | undefined;
}

export interface FulfilResult {
  /** The pack's coins are on the balance (credited now or earlier). */
  fulfilled: boolean;
  /** This call is the one that credited them. */
  creditedNow: boolean;
}

function describeMismatch(payment: Payment, intent: IntentFacts): string | null {
  if (intent.amount !== payment.amountCents) return `amount ${intent.amount} != ${payment.amountCents}`;
  if (intent.currency.toLowerCase() !== payment.currency)
    return `currency ${intent.currency} != ${payment.currency}`;
  if (intent.metadata?.userId !== payment.userId)
    return `metadata.userId ${String(intent.metadata?.userId)} != ${payment.userId}`;
  if (intent.metadata?.packId !== payment.packId)
    return `metadata.packId ${String(intent.metadata?.packId)} != ${payment.packId}`;
  return null;
}

/**
 * Credits a succeeded PaymentIntent's pack exactly once, after checking it against the payments row
 * the server wrote when it created the intent. Unknown or mismatching intents credit nothing and are
 * logged (the caller still answers 200 to Stripe, since retrying would not change the outcome).
 */
export function fulfilPaymentIntent(
  ctx: AppContext,
  intent: IntentFacts,
  source: 'webhook' | 'sync',
): FulfilResult {
  const now = ctx.clock.now();
  let credited: { userId: string; coins: number } | null = null;
  const result = ctx.db.transaction((tx): FulfilResult => {
    const payment = tx.select().from(payments).where(eq(payments.id, intent.id)).get();
    if (!payment) {
      ctx.logger.warn('stripe: unknown payment intent, nothing credited', {
        paymentIntentId: intent.id,
        source,
      });
      return { fulfilled: false, creditedNow: false };
    }
    const mismatch = describeMismatch(payment, intent);
    if (mismatch) {
      ctx.logger.warn('stripe: payment intent does not match its payment record, nothing credited', {
        paymentIntentId: intent.id,
        source,
        mismatch,
      });
      return { fulfilled: payment.fulfilledAt !== null, creditedNow: false };
    }
    if (intent.status !== 'succeeded') return { fulfilled: payment.fulfilledAt !== null, creditedNow: false };
    const creditedNow = creditPaymentOnce(ctx.sqlite, tx, payment, now);
    if (creditedNow) {
      ctx.logger.info('stripe: payment fulfilled', {
        paymentIntentId: intent.id,
        source,
        userId: payment.userId,
      });
      credited = { userId: payment.userId, coins: payment.coins };
    }
    return { fulfilled: true, creditedNow };
  });
  const done = credited as { userId: string; coins: number } | null;
  if (done) {
    publishWithBalance(ctx, done.userId, (balance) => ({
      type: 'payment_credited',
      coins: formatCents(done.coins),
      balance,
    }));
  }
  return result;
}

import { formatCents } from '../shared/money.ts';
import type { Payment } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import { creditPaymentOnce, writeNotes, type LogNote, type PaymentsContext } from './payment-record.ts';
import { paymentsRepo } from './payments-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

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
 * The payment's row is locked for the transaction, and the credit's ledger key is unique, so two
 * concurrent fulfilments (webhook and /sync, or a redelivery) credit once on either engine.
 */
export async function fulfilPaymentIntent(
  ctx: PaymentsContext,
  intent: IntentFacts,
  source: 'webhook' | 'sync' | 'reconcile',
): Promise<FulfilResult> {
  const now = ctx.clock.now();
  const outcome = await ctx.store.transaction(async (tx) => {
    const notes: LogNote[] = [];
    const done = (result: FulfilResult, credited: Payment | null = null) => ({
      result,
      credited,
      notes,
    });
    const payment = await paymentsRepo(tx).lock(intent.id);
    if (!payment) {
      notes.push({
        level: 'warn',
        msg: 'stripe: unknown payment intent, nothing credited',
        fields: { paymentIntentId: intent.id, source },
      });
      return done({ fulfilled: false, creditedNow: false });
    }
    const mismatch = describeMismatch(payment, intent);
    if (mismatch) {
      notes.push({
        level: 'warn',
        msg: 'stripe: payment intent does not match its payment record, nothing credited',
        fields: { paymentIntentId: intent.id, source, mismatch },
      });
      return done({ fulfilled: payment.fulfilledAt !== null, creditedNow: false });
    }
    if (intent.status !== 'succeeded')
      return done({ fulfilled: payment.fulfilledAt !== null, creditedNow: false });
    const credited = await creditPaymentOnce(tx, payment, now);
    if (!credited) return done({ fulfilled: true, creditedNow: false });
    notes.push({
      level: 'info',
      msg: 'stripe: payment fulfilled',
      fields: { paymentIntentId: intent.id, source, userId: payment.userId },
    });
    return done({ fulfilled: true, creditedNow: true }, payment);
  });
  writeNotes(ctx, outcome.notes);
  if (outcome.credited) await publishCredited(ctx, outcome.credited);
  return outcome.result;
}

/** After the commit: the balance read now is the new one (or newer). Never throws. */
async function publishCredited(ctx: PaymentsContext, payment: Payment): Promise<void> {
  try {
    const balance = await ledger.getBalance(ctx.store, payment.userId);
    void ctx.events.publish(payment.userId, {
      type: 'payment_credited',
      coins: formatCents(payment.coins),
      balance: formatCents(balance),
    });
  } catch (err) {
    ctx.logger.warn('live event not published', {
      userId: payment.userId,
      error: errorMessage(err),
    });
  }
}

import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { payments, transactions } from '../db/schema.ts';
import { debit, getBalance } from '../ledger/ledger.ts';
import { creditPaymentOnce, packLabel } from './payment-record.ts';

export interface Reversal {
  kind: 'refund' | 'dispute';
  paymentIntentId: string;
  /** Identifies this refund state / dispute, so a redelivered event takes nothing twice. */
  reference: string;
  /** The charge's amount, checked against the payment record (null for disputes, which carry none). */
  chargeAmount: number | null;
  currency: string;
  /** Cumulative amount refunded on the charge (refunds); the disputed amount (disputes). */
  amount: number;
}

export interface ReversalResult {
  /** Hundredths of coins taken back by this call. */
  takenCents: number;
}

/**
 * Records a refund or dispute and takes the pack's coins back (pro rata for partial refunds) as far
 * as the balance allows; the balance never goes below zero. What was taken is kept in
 * payments.reversedCoins, so the total taken never exceeds what the pack credited.
 */
export function reversePayment(ctx: AppContext, reversal: Reversal): ReversalResult {
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    let payment = tx.select().from(payments).where(eq(payments.id, reversal.paymentIntentId)).get();
    if (!payment) {
      ctx.logger.warn(`stripe: ${reversal.kind} for an unknown payment intent, nothing recorded`, {
        paymentIntentId: reversal.paymentIntentId,
      });
      return { takenCents: 0 };
    }
    const amountMismatch = reversal.chargeAmount !== null && reversal.chargeAmount !== payment.amountCents;
    if (amountMismatch || reversal.currency.toLowerCase() !== payment.currency) {
      ctx.logger.warn(`stripe: ${reversal.kind} does not match its payment record, nothing recorded`, {
        paymentIntentId: payment.id,
        chargeAmount: reversal.chargeAmount,
        currency: reversal.currency,
      });
      return { takenCents: 0 };
    }
    // A refunded or disputed charge was paid: if its success event has not arrived yet, credit first
    // (under the same exactly-once key), so the reversal takes back coins that were actually given.
    if (payment.fulfilledAt === null) {
      creditPaymentOnce(tx, payment, now);
      payment = tx.select().from(payments).where(eq(payments.id, payment.id)).get() ?? payment;
    }
    const status = reversal.kind === 'dispute' ? 'disputed' : 'refunded';
    const key = `stripe:${reversal.kind}:${reversal.reference}`;
    const seen = tx.select({ id: transactions.id }).from(transactions).where(eq(transactions.idempotencyKey, key)).get();
    if (seen) return { takenCents: 0 };

    const share = Math.min(Math.max(reversal.amount, 0), payment.amountCents);
    const due = Math.floor((payment.coins * share) / payment.amountCents);
    const remaining = Math.max(0, due - payment.reversedCoins);
    const taken = Math.min(remaining, Math.max(0, getBalance(tx, payment.userId)));
    if (taken > 0) {
      debit(tx, {
        userId: payment.userId,
        cents: taken,
        type: 'purchase_reversal',
        description: `${reversal.kind === 'dispute' ? 'Payment disputed' : 'Payment refunded'}: ${packLabel(payment)}`,
        idempotencyKey: key,
        now,
      });
    }
    tx.update(payments)
      .set({ status, reversedCoins: sql`${payments.reversedCoins} + ${taken}` })
      .where(eq(payments.id, payment.id))
      .run();
    ctx.logger.info(`stripe: payment ${status}`, { paymentIntentId: payment.id, dueCents: remaining, takenCents: taken });
    return { takenCents: taken };
  });
}

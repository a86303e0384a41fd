import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/client.ts';
import { paymentRefunds, payments, type Payment } from '../db/schema.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { creditPaymentOnce, packLabel } from './payment-record.ts';

// Refunds and disputes (chargebacks). Every event only records what Stripe says about the charge
// (a refund's state, the charge's refunded total, the dispute's state); settleReversal then moves the
// balance by the difference between what should be taken back now and what already was. Replays,
// duplicates and out-of-order deliveries therefore converge on the same balance.

/** A refund as Stripe describes it (refund.* / charge.refund.updated events, or charge.refunds). */
export interface RefundFacts {
  id: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  status: string | null;
}

/** A charge.refunded event: the charge's cumulative refunded amount. */
export interface ChargeRefundFacts {
  paymentIntentId: string;
  chargeAmount: number;
  currency: string;
  amountRefunded: number;
}

/** Any charge.dispute.* event. */
export interface DisputeFacts {
  id: string;
  paymentIntentId: string;
  amount: number;
  currency: string;
  status: string;
}

export type DisputeState = 'open' | 'won' | 'lost';

/** Refund states that give the money back to the card holder (failed and canceled ones do not). */
const INACTIVE_REFUND = new Set(['failed', 'canceled']);

/** Closed dispute statuses where the merchant keeps the money (inquiries closed, prevented). */
const KEPT = new Set(['won', 'warning_closed', 'prevented']);

export function disputeStateOf(status: string): DisputeState {
  if (KEPT.has(status)) return 'won';
  if (status === 'lost') return 'lost';
  return 'open';
}

export interface SettleResult {
  /** Hundredths of coins moved by this call: positive = taken back, negative = restored. */
  movedCents: number;
}

const NOTHING: SettleResult = { movedCents: 0 };

/**
 * Loads the payment an event is about, checking currency (and amount where the event has one) against
 * the record the server wrote. If its success event has not arrived yet the charge was nevertheless
 * paid, so it credits first (same exactly-once key), and the reversal takes back coins actually given.
 */
function loadPayment(
  ctx: AppContext,
  tx: Tx,
  kind: string,
  facts: { paymentIntentId: string; currency: string; chargeAmount?: number },
): Payment | null {
  const payment = tx.select().from(payments).where(eq(payments.id, facts.paymentIntentId)).get();
  if (!payment) {
    ctx.logger.warn(`stripe: ${kind} for an unknown payment intent, nothing recorded`, {
      paymentIntentId: facts.paymentIntentId,
    });
    return null;
  }
  const amountMismatch = facts.chargeAmount !== undefined && facts.chargeAmount !== payment.amountCents;
  if (amountMismatch || facts.currency.toLowerCase() !== payment.currency) {
    ctx.logger.warn(`stripe: ${kind} does not match its payment record, nothing recorded`, {
      paymentIntentId: payment.id,
      chargeAmount: facts.chargeAmount,
      currency: facts.currency,
    });
    return null;
  }
  if (payment.fulfilledAt === null) creditPaymentOnce(ctx.sqlite, tx, payment, ctx.clock.now());
  return tx.select().from(payments).where(eq(payments.id, payment.id)).get() ?? null;
}

function clampCents(amount: number, payment: Payment): number {
  return Number.isSafeInteger(amount) ? Math.min(Math.max(amount, 0), payment.amountCents) : 0;
}

/**
 * Brings the balance in line with the payment's refunds and dispute: the pack's coins times the share
 * of the charge that is refunded or under an open or lost dispute. Takes back what is missing (into
 * debt if the balance cannot cover it: the coins were spent) or restores what no longer applies
 * (a dispute won, a refund that failed). Runs inside the caller's transaction.
 */
function settleReversal(ctx: AppContext, tx: Tx, paymentId: string, reason: string): SettleResult {
  const payment = tx.select().from(payments).where(eq(payments.id, paymentId)).get();
  if (!payment) return NOTHING;
  const refunds = tx.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId)).all();
  let active = 0;
  let inactive = 0;
  for (const r of refunds) {
    if (INACTIVE_REFUND.has(r.status)) inactive += r.amountCents;
    else active += r.amountCents;
  }
  // charge.refunded carries only the charge's total; refunds known to have failed come off it.
  const refunded = Math.max(active, payment.chargeRefundedCents - inactive);
  const disputed =
    payment.disputeStatus === 'open' || payment.disputeStatus === 'lost' ? payment.disputeCents : 0;
  const share = Math.min(payment.amountCents, Math.max(0, refunded) + disputed);
  const due = Math.floor((payment.coins * share) / payment.amountCents);
  const delta = due - payment.reversedCoins;

  const status = disputed > 0 ? 'disputed' : refunded > 0 ? 'refunded' : 'succeeded';
  if (delta === 0) {
    if (status !== payment.status)
      tx.update(payments).set({ status }).where(eq(payments.id, paymentId)).run();
    return NOTHING;
  }
  const now = ctx.clock.now();
  const entry = {
    userId: payment.userId,
    cents: Math.abs(delta),
    type: 'purchase_reversal' as const,
    description: `${reason}: ${packLabel(payment)}`,
    idempotencyKey: `stripe:reversal:${payment.id}:${payment.adjustments + 1}`,
    now,
  };
  // A chargeback is a debt like the early-leave penalty: what the balance cannot cover goes negative
  // and later earnings repay it. Restoring is an ordinary credit.
  if (delta > 0) debit(ctx.sqlite, { ...entry, allowNegative: true });
  else credit(ctx.sqlite, entry);
  tx.update(payments)
    .set({
      status,
      reversedCoins: sql`${payments.reversedCoins} + ${delta}`,
      adjustments: sql`${payments.adjustments} + 1`,
    })
    .where(eq(payments.id, paymentId))
    .run();
  ctx.logger.info(delta > 0 ? 'stripe: coins taken back' : 'stripe: coins restored', {
    paymentIntentId: payment.id,
    userId: payment.userId,
    reason,
    cents: Math.abs(delta),
    reversedCents: payment.reversedCoins + delta,
  });
  return { movedCents: delta };
}

function upsertRefund(ctx: AppContext, tx: Tx, payment: Payment, refund: RefundFacts): string {
  const amount = clampCents(refund.amount, payment);
  const status = refund.status ?? 'pending';
  const now = ctx.clock.now();
  tx.insert(paymentRefunds)
    .values({ id: refund.id, paymentId: payment.id, amountCents: amount, status, updatedAt: now })
    .onConflictDoUpdate({
      target: paymentRefunds.id,
      set: {
        amountCents: amount,
        status: sql`CASE WHEN ${paymentRefunds.status} IN ('failed', 'canceled') THEN ${paymentRefunds.status} ELSE ${status} END`,
        updatedAt: now,
      },
      // A refund id is bound to its payment.
      setWhere: sql`${paymentRefunds.paymentId} = ${payment.id}`,
    })
    .run();
  return status;
}

/**
 * Records one refund's state (refund.created / refund.updated / refund.failed / charge.refund.updated).
 * A failed or canceled refund stays so: a late redelivery of its earlier "pending" or "succeeded"
 * state cannot make it count again.
 */
export function recordRefund(ctx: AppContext, refund: RefundFacts): SettleResult {
  return ctx.db.transaction((tx) => {
    const payment = loadPayment(ctx, tx, 'refund', refund);
    if (!payment) return NOTHING;
    const status = upsertRefund(ctx, tx, payment, refund);
    const reason = INACTIVE_REFUND.has(status) ? `Refund ${status}, coins restored` : 'Payment refunded';
    return settleReversal(ctx, tx, payment.id, reason);
  });
}

/**
 * charge.refunded: the charge's refunded total only grows, so the highest value seen is kept. Older
 * API versions also list the refunds on the charge; those are recorded like refund events.
 */
export function recordChargeRefunded(
  ctx: AppContext,
  charge: ChargeRefundFacts,
  refunds: RefundFacts[] = [],
): SettleResult {
  return ctx.db.transaction((tx) => {
    const payment = loadPayment(ctx, tx, 'refund', charge);
    if (!payment) return NOTHING;
    const total = clampCents(charge.amountRefunded, payment);
    if (total > payment.chargeRefundedCents) {
      tx.update(payments).set({ chargeRefundedCents: total }).where(eq(payments.id, payment.id)).run();
    }
    for (const refund of refunds) upsertRefund(ctx, tx, payment, refund);
    return settleReversal(ctx, tx, payment.id, 'Payment refunded');
  });
}

/**
 * Any charge.dispute.* event. Open until Stripe reports it closed; once closed, a late "open"
 * delivery does not reopen it (a lost dispute can still become won after an appeal).
 */
export function recordDispute(ctx: AppContext, dispute: DisputeFacts): SettleResult {
  return ctx.db.transaction((tx) => {
    const payment = loadPayment(ctx, tx, 'dispute', dispute);
    if (!payment) return NOTHING;
    const next = disputeStateOf(dispute.status);
    const current = payment.disputeStatus as DisputeState | null;
    const state: DisputeState = next === 'open' && (current === 'won' || current === 'lost') ? current : next;
    tx.update(payments)
      .set({ disputeId: dispute.id, disputeCents: clampCents(dispute.amount, payment), disputeStatus: state })
      .where(eq(payments.id, payment.id))
      .run();
    const reason =
      state === 'won'
        ? 'Dispute won, coins restored'
        : state === 'lost'
          ? 'Dispute lost'
          : 'Payment disputed';
    return settleReversal(ctx, tx, payment.id, reason);
  });
}

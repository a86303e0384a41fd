import type { TxHandle } from '../db/engine.ts';
import type { Payment } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import {
  creditPaymentOnce,
  packLabel,
  writeNotes,
  type LogNote,
  type PaymentsContext,
} from './payment-record.ts';
import { paymentsRepo, type DisputeState } from './payments-repo.ts';

// Refunds and disputes (chargebacks). Every event only records what Stripe says about the charge
// (a refund's state, the charge's refunded total, the dispute's state); settleReversal then moves the
// balance by the difference between what should be taken back now and what already was. Replays,
// duplicates and out-of-order deliveries therefore converge on the same balance. Each event is one
// store transaction that starts by locking the payment's row, so events about one payment apply one
// after the other on either engine; log lines are written after the commit.

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

/** Any charge.dispute.* event: the facts a refund has, its status always set. */
export interface DisputeFacts extends RefundFacts {
  status: string;
  /** Stripe's time (ms) of this state: its event's `created`. Unknown (undefined): applied as latest. */
  at?: number;
}

export type { DisputeState } from './payments-repo.ts';

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

/** One event's transaction: its handle, the time, and the log lines to write after the commit. */
interface EventTx {
  tx: TxHandle;
  now: number;
  notes: LogNote[];
}

/** Runs one event's work in a store transaction and writes its log lines once it has committed. */
async function inEventTransaction(
  ctx: PaymentsContext,
  fn: (e: EventTx) => Promise<SettleResult>,
): Promise<SettleResult> {
  const now = ctx.clock.now();
  const { result, notes } = await ctx.store.transaction(async (tx) => {
    const e: EventTx = { tx, now, notes: [] };
    return { result: await fn(e), notes: e.notes };
  });
  writeNotes(ctx, notes);
  return result;
}

/**
 * Locks and loads the payment an event is about, checking currency (and amount where the event has
 * one) against the record the server wrote. If its success event has not arrived yet the charge was
 * nevertheless paid, so it credits first (same exactly-once key), and the reversal takes back coins
 * actually given.
 */
async function loadPayment(
  e: EventTx,
  kind: string,
  facts: { paymentIntentId: string; currency: string; chargeAmount?: number },
): Promise<Payment | null> {
  const repo = paymentsRepo(e.tx);
  const payment = await repo.lock(facts.paymentIntentId);
  if (!payment) {
    e.notes.push({
      level: 'warn',
      msg: `stripe: ${kind} for an unknown payment intent, nothing recorded`,
      fields: { paymentIntentId: facts.paymentIntentId },
    });
    return null;
  }
  const amountMismatch = facts.chargeAmount !== undefined && facts.chargeAmount !== payment.amountCents;
  if (amountMismatch || facts.currency.toLowerCase() !== payment.currency) {
    e.notes.push({
      level: 'warn',
      msg: `stripe: ${kind} does not match its payment record, nothing recorded`,
      fields: { paymentIntentId: payment.id, chargeAmount: facts.chargeAmount, currency: facts.currency },
    });
    return null;
  }
  if (payment.fulfilledAt === null) await creditPaymentOnce(e.tx, payment, e.now);
  return (await repo.find(payment.id)) ?? null;
}

function clampCents(amount: number, payment: Payment): number {
  return Number.isSafeInteger(amount) ? Math.min(Math.max(amount, 0), payment.amountCents) : 0;
}

/**
 * Brings the balance in line with the payment's refunds and dispute: the pack's coins times the share
 * of the charge that is refunded or under an open or lost dispute. Takes back what is missing (into
 * debt if the balance cannot cover it: the coins were spent) or restores what no longer applies
 * (a dispute won, a refund that failed). Runs inside the event's transaction, the payment's row locked.
 */
async function settleReversal(e: EventTx, paymentId: string, reason: string): Promise<SettleResult> {
  const repo = paymentsRepo(e.tx);
  const payment = await repo.find(paymentId);
  if (!payment) return NOTHING;
  const refunds = await repo.listRefunds(paymentId);
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
    if (status !== payment.status) await repo.setStatus(paymentId, status);
    return NOTHING;
  }
  const entry = {
    userId: payment.userId,
    cents: Math.abs(delta),
    type: 'purchase_reversal' as const,
    description: `${reason}: ${packLabel(payment)}`,
    idempotencyKey: `stripe:reversal:${payment.id}:${payment.adjustments + 1}`,
    now: e.now,
  };
  // A chargeback is a debt like the early-leave penalty: what the balance cannot cover goes negative
  // and later earnings repay it. Restoring is an ordinary credit.
  if (delta > 0) await ledger.debit(e.tx, { ...entry, allowNegative: true });
  else await ledger.credit(e.tx, entry);
  await repo.recordAdjustment(paymentId, status, delta);
  e.notes.push({
    level: 'info',
    msg: delta > 0 ? 'stripe: coins taken back' : 'stripe: coins restored',
    fields: {
      paymentIntentId: payment.id,
      userId: payment.userId,
      reason,
      cents: Math.abs(delta),
      reversedCents: payment.reversedCoins + delta,
    },
  });
  return { movedCents: delta };
}

async function upsertRefund(e: EventTx, payment: Payment, refund: RefundFacts): Promise<string> {
  const status = refund.status ?? 'pending';
  await paymentsRepo(e.tx).upsertRefund(
    { id: refund.id, paymentId: payment.id, amountCents: clampCents(refund.amount, payment), status },
    e.now,
  );
  return status;
}

/**
 * Records one refund's state (refund.created / refund.updated / refund.failed / charge.refund.updated).
 * A failed or canceled refund stays so: a late redelivery of its earlier "pending" or "succeeded"
 * state cannot make it count again.
 */
export function recordRefund(ctx: PaymentsContext, refund: RefundFacts): Promise<SettleResult> {
  return inEventTransaction(ctx, async (e) => {
    const payment = await loadPayment(e, 'refund', refund);
    if (!payment) return NOTHING;
    const status = await upsertRefund(e, payment, refund);
    const reason = INACTIVE_REFUND.has(status) ? `Refund ${status}, coins restored` : 'Payment refunded';
    return settleReversal(e, payment.id, reason);
  });
}

/**
 * charge.refunded: the charge's refunded total only grows, so the highest value seen is kept. Older
 * API versions also list the refunds on the charge; those are recorded like refund events.
 */
export function recordChargeRefunded(
  ctx: PaymentsContext,
  charge: ChargeRefundFacts,
  refunds: RefundFacts[] = [],
): Promise<SettleResult> {
  return inEventTransaction(ctx, async (e) => {
    const payment = await loadPayment(e, 'refund', charge);
    if (!payment) return NOTHING;
    await paymentsRepo(e.tx).raiseChargeRefunded(payment.id, clampCents(charge.amountRefunded, payment));
    for (const refund of refunds) await upsertRefund(e, payment, refund);
    return settleReversal(e, payment.id, 'Payment refunded');
  });
}

/**
 * Any charge.dispute.* event. Open until Stripe reports it closed; once closed, a late "open"
 * delivery does not reopen it (a lost dispute can still become won after an appeal).
 */
export function recordDispute(ctx: PaymentsContext, dispute: DisputeFacts): Promise<SettleResult> {
  return inEventTransaction(ctx, async (e) => {
    const payment = await loadPayment(e, 'dispute', dispute);
    if (!payment) return NOTHING;
    const next = disputeStateOf(dispute.status);
    const current = payment.disputeStatus as DisputeState | null;
    const at = dispute.at ?? null;
    const appliedAt = payment.disputeAt;
    // Applied by Stripe's own time (decision 048): an event older than the state already applied changes
    // nothing (a "lost" delivered after a later "won" takes nothing again); at the same instant a closed
    // state wins over an open one. Once closed, an "open" never reopens it.
    const older =
      at !== null &&
      appliedAt !== null &&
      (at < appliedAt || (at === appliedAt && next === 'open' && current !== 'open'));
    const closedAlready = next === 'open' && (current === 'won' || current === 'lost');
    const state: DisputeState = older || closedAlready ? (current ?? next) : next;
    await paymentsRepo(e.tx).setDispute(payment.id, {
      disputeId: dispute.id,
      cents: older ? payment.disputeCents : clampCents(dispute.amount, payment),
      state,
      at: older || at === null ? appliedAt : Math.max(at, appliedAt ?? at),
    });
    const reason =
      state === 'won'
        ? 'Dispute won, coins restored'
        : state === 'lost'
          ? 'Dispute lost'
          : 'Payment disputed';
    return settleReversal(e, payment.id, reason);
  });
}

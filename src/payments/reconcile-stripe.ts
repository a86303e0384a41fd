import type { AppContext } from '../context.ts';
import { HOUR } from '../clock.ts';
import { COIN_PACKS, isPackId } from '../shared/packs.ts';
import { usersRepo } from '../users/users-repo.ts';
import { insertPackPayment } from './create-payment-intent.ts';
import { reversalFacts } from './handle-stripe-event.ts';
import { fulfilPaymentIntent } from './fulfil-payment.ts';
import { paymentsRepo } from './payments-repo.ts';
import type { PaymentsContext } from './payment-record.ts';
import { recordDispute, recordRefund } from './reverse-payment.ts';
import type { Stripe } from './stripe-client.ts';

// Payments reconciled with Stripe (issue 29 item 3). Webhooks and the buyer's /sync are the fast paths;
// this periodic job is the one that cannot be missed: it lists what Stripe knows (payment intents,
// refunds, disputes created in the look-back window) and settles whatever the database does not know
// or has not applied, through the same ledger paths, exactly once (their ledger keys are unique):
//   - a succeeded intent without its payments row (a restore from a backup taken before it) gets the
//     row back from the intent's metadata `{ userId, packId, coins }`, checked against the pack table,
//     then is fulfilled like a webhook would: credited once;
//   - a succeeded intent not yet credited (every webhook failed, e.g. its signature after a clock jump,
//     and the buyer closed the tab) is credited;
//   - refunds and disputes are recorded as their events would be; replays converge (reverse-payment.ts).
// Stripe is called outside any transaction; each intent's settlement is its own transaction.

/** Stripe objects created this long ago or later are looked at (a restore older than this: --since). */
export const STRIPE_RECONCILE_LOOKBACK_MS = 72 * HOUR;
/** One run reads at most this many objects of each kind (100 per page). */
const MAX_OBJECTS = 5000;

export interface StripeReconcileResult {
  intents: number;
  /** Payments rows written again from Stripe (the database had lost them). */
  restored: number;
  /** Intents this run credited. */
  credited: number;
  /** Intents that could not be matched to a user and pack (logged, nothing credited). */
  unmatched: number;
  refunds: number;
  disputes: number;
  /** Hundredths moved by refunds and disputes this run (taken back − restored). */
  reversedCents: number;
}

/** The payments row as create-payment-intent wrote it, rebuilt from the intent; null when it does not fit a pack. */
async function restorePaymentRow(ctx: PaymentsContext, intent: Stripe.PaymentIntent): Promise<boolean> {
  const { userId, packId, coins } = intent.metadata ?? {};
  if (!userId || !isPackId(packId)) return false;
  const pack = COIN_PACKS[packId];
  if (
    intent.amount !== pack.priceCents ||
    intent.currency.toLowerCase() !== 'usd' ||
    (coins !== undefined && coins !== String(pack.coins))
  )
    return false;
  if (!(await usersRepo(ctx.store.read).findById(userId))) return false;
  const row = await insertPackPayment(ctx.store, intent.id, userId, packId, intent.created * 1000);
  return row.userId === userId;
}

export async function reconcileStripe(
  ctx: PaymentsContext & Pick<AppContext, 'stripe'>,
  options: { sinceMs?: number } = {},
): Promise<StripeReconcileResult> {
  const result: StripeReconcileResult = {
    intents: 0,
    restored: 0,
    credited: 0,
    unmatched: 0,
    refunds: 0,
    disputes: 0,
    reversedCents: 0,
  };
  const stripe = ctx.stripe;
  if (!stripe) return result;
  const since = options.sinceMs ?? ctx.clock.now() - STRIPE_RECONCILE_LOOKBACK_MS;
  const created = { gte: Math.floor(since / 1000) };

  // 1. Payment intents first: a refund or dispute needs its payments row.
  for await (const intent of stripe.paymentIntents.list({ created, limit: 100 })) {
    if (++result.intents > MAX_OBJECTS) break;
    if (intent.status !== 'succeeded') continue;
    const known = await paymentsRepo(ctx.store.read).find(intent.id);
    if (known?.fulfilledAt != null) continue;
    if (!known) {
      if (!(await restorePaymentRow(ctx, intent))) {
        result.unmatched += 1;
        ctx.logger.warn('stripe reconcile: succeeded payment intent matches no user and pack', {
          paymentIntentId: intent.id,
        });
        continue;
      }
      result.restored += 1;
      ctx.logger.warn('stripe reconcile: payment missing from the database, restored from Stripe', {
        paymentIntentId: intent.id,
        userId: intent.metadata?.userId,
      });
    }
    const outcome = await fulfilPaymentIntent(ctx, intent, 'reconcile');
    if (outcome.creditedNow) result.credited += 1;
  }

  // 2. Refunds, as refund.* events would record them.
  let refunds = 0;
  for await (const refund of stripe.refunds.list({ created, limit: 100 })) {
    if (++refunds > MAX_OBJECTS) break;
    const facts = reversalFacts(refund);
    if (!facts) continue;
    const moved = await recordRefund(ctx, facts);
    result.refunds += 1;
    result.reversedCents += moved.movedCents;
  }

  // 3. Disputes, as charge.dispute.* events would record them.
  let disputes = 0;
  for await (const dispute of stripe.disputes.list({ created, limit: 100 })) {
    if (++disputes > MAX_OBJECTS) break;
    const facts = reversalFacts(dispute);
    if (!facts) continue;
    const moved = await recordDispute(ctx, facts);
    result.disputes += 1;
    result.reversedCents += moved.movedCents;
  }
  if (result.credited > 0 || result.restored > 0 || result.reversedCents !== 0 || result.unmatched > 0)
    ctx.logger.warn('stripe reconcile: settled what the webhooks had not', { ...result });
  return result;
}

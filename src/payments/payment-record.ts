import type { AppContext } from '../context.ts';
import type { TxHandle } from '../db/engine.ts';
import type { Payment } from '../db/schema.ts';
import * as ledger from '../ledger/index.ts';
import { COIN_PACKS, isPackId } from '../shared/packs.ts';
import { paymentsRepo } from './payments-repo.ts';

// Helpers shared by fulfilment and reversal: both run inside the caller's store transaction.

export function packLabel(payment: Pick<Payment, 'packId' | 'coins'>): string {
  const name = isPackId(payment.packId) ? COIN_PACKS[payment.packId].name : payment.packId;
  return `${name} (${Math.floor(payment.coins / 100)} coins)`;
}

/**
 * Credits the pack's coins for a payment exactly once: the ledger key `stripe:<pi>` is unique, so a
 * second webhook, a /sync or a refund arriving first all find it taken and add nothing (on PostgreSQL a
 * concurrent second writer of the key waits for the first's commit, then inserts nothing).
 * Returns true when this call credited the coins.
 */
export async function creditPaymentOnce(tx: TxHandle, payment: Payment, now: number): Promise<boolean> {
  const result = await ledger.credit(tx, {
    userId: payment.userId,
    cents: payment.coins,
    type: 'purchase',
    description: `Coin purchase: ${packLabel(payment)}`,
    idempotencyKey: `stripe:${payment.id}`,
    now,
  });
  await paymentsRepo(tx).markFulfilled(payment.id, now);
  return result !== null;
}

/** What the payment services use of the application context (the contract test builds just this). */
export type PaymentsContext = Pick<AppContext, 'store' | 'clock' | 'logger' | 'events'>;

/** A log line decided inside a transaction, written after it commits (a retried body logs once). */
export interface LogNote {
  level: 'info' | 'warn';
  msg: string;
  fields: Record<string, unknown>;
}

export function writeNotes(ctx: Pick<AppContext, 'logger'>, notes: LogNote[]): void {
  for (const note of notes) ctx.logger[note.level](note.msg, note.fields);
}

import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Connection, Tx } from '../db/client.ts';
import { payments, type Payment } from '../db/schema.ts';
import { credit } from '../ledger/ledger.ts';
import { COIN_PACKS, isPackId } from '../shared/packs.ts';

// Helpers shared by fulfilment and reversal: both run inside the caller's db.transaction.

export function packLabel(payment: Pick<Payment, 'packId' | 'coins'>): string {
  const name = isPackId(payment.packId) ? COIN_PACKS[payment.packId].name : payment.packId;
  return `${name} (${Math.floor(payment.coins / 100)} coins)`;
}

/**
 * Credits the pack's coins for a payment exactly once: the ledger key `stripe:<pi>` is unique, so a
 * second webhook, a /sync or a refund arriving first all find it taken and add nothing.
 * Returns true when this call credited the coins.
 */
export function creditPaymentOnce(conn: Connection, tx: Tx, payment: Payment, now: number): boolean {
  const result = credit(conn, {
    userId: payment.userId,
    cents: payment.coins,
    type: 'purchase',
    description: `Coin purchase: ${packLabel(payment)}`,
    idempotencyKey: `stripe:${payment.id}`,
    now,
  });
  tx.update(payments)
    .set({
      fulfilledAt: now,
      // A refund or dispute recorded before the success event keeps its status.
      status: sql`CASE WHEN ${payments.status} = 'created' THEN 'succeeded' ELSE ${payments.status} END`,
    })
    .where(and(eq(payments.id, payment.id), isNull(payments.fulfilledAt)))
    .run();
  return result !== null;
}

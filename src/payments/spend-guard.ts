import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { payments } from '../db/schema.ts';
import { payments as pgPayments } from '../db/schema.pg.ts';
import type { DbHandle } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';

export const DISPUTE_HOLD_MESSAGE =
  'A payment on your account is disputed. Buying and spending coins is paused until the dispute is resolved.';

/**
 * Refuses buying and spending while one of the user's payments has an open dispute (a chargeback in
 * progress): coins bought with money that may be taken back are not spent before the bank decides.
 * Call it inside the spending transaction so a dispute recorded meanwhile is seen.
 */
export function assertCanSpend(db: DbOrTx, userId: string): void {
  const open = db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.disputeStatus, 'open')))
    .limit(1)
    .get();
  if (open) throw new AppError('forbidden', DISPUTE_HOLD_MESSAGE);
}

/**
 * assertCanSpend for converted (async) code on either engine (decision 034), with the spending
 * transaction's handle. Added by the campaigns conversion (step 2C) beside the synchronous one, which
 * the payments conversion (2E) owns.
 */
export async function assertCanSpendIn(h: DbHandle, userId: string): Promise<void> {
  if (h.kind === 'sqlite') return assertCanSpend(h.db, userId);
  const open = await h.db
    .select({ id: pgPayments.id })
    .from(pgPayments)
    .where(and(eq(pgPayments.userId, userId), eq(pgPayments.disputeStatus, 'open')))
    .limit(1);
  if (open.length > 0) throw new AppError('forbidden', DISPUTE_HOLD_MESSAGE);
}

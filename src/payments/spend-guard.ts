import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { payments } from '../db/schema.ts';
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

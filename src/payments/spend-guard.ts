import type { DbHandle } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { paymentsRepo } from './payments-repo.ts';

export const DISPUTE_HOLD_MESSAGE =
  'A payment on your account is disputed. Buying and spending coins is paused until the dispute is resolved.';

/**
 * Refuses buying and spending while one of the user's payments has an open dispute (a chargeback in
 * progress): coins bought with money that may be taken back are not spent before the bank decides.
 * Call it inside the spending transaction, with its handle (`tx`), so a dispute recorded meanwhile is
 * seen; checkout, which spends nothing yet, asks the store's `read`.
 */
export async function assertCanSpendIn(h: DbHandle, userId: string): Promise<void> {
  if (await paymentsRepo(h).hasOpenDispute(userId)) throw new AppError('forbidden', DISPUTE_HOLD_MESSAGE);
}

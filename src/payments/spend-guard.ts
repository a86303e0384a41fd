import type { DbHandle } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { paymentsRepo } from './payments-repo.ts';

export const DISPUTE_HOLD_MESSAGE =
  'A payment on your account is disputed. Buying and spending coins is paused until the dispute is resolved.';

/**
 * Refuses buying and spending while one of the user's payments has an open dispute (a chargeback in
 * progress): coins bought with money that may be taken back are not spent before the bank decides.
 * Call it inside the spending transaction, with its handle (`tx`), so a dispute recorded meanwhile is
 * seen; checkout, which spends nothing yet, asks the store's `read`. A spend passes `lockSpender`: the
 * spender's row is held first, so on PostgreSQL (READ COMMITTED) a dispute cannot commit between this
 * check and the debit — its reversal debits the same row and waits, or committed before and is seen.
 */
export async function assertCanSpendIn(
  h: DbHandle,
  userId: string,
  options: { lockSpender?: boolean } = {},
): Promise<void> {
  const repo = paymentsRepo(h);
  if (options.lockSpender) await repo.lockSpender(userId);
  if (await repo.hasOpenDispute(userId)) throw new AppError('forbidden', DISPUTE_HOLD_MESSAGE);
}

import type { DbHandle } from '../db/engine.ts';
import type { Payment, PaymentRefund } from '../db/schema.ts';
import { SqlitePaymentsRepository } from './payments-repo.sqlite.ts';
import { PgPaymentsRepository } from './payments-repo.pg.ts';

// Card payments (Stripe PaymentIntents), their refunds and dispute (decision 034): one async interface,
// a SQLite and a PostgreSQL implementation, held together by payments-repo.test.ts on both engines.

export interface NewPayment {
  id: string;
  userId: string;
  packId: string;
  amountCents: number;
  currency: string;
  coins: number;
  createdAt: number;
}

export type DisputeState = 'open' | 'won' | 'lost';

export interface PaymentsRepository {
  /** Inserts the payment (status created) unless its id exists; returns the row stored under the id. */
  insertIfNew(payment: NewPayment): Promise<Payment>;
  find(id: string): Promise<Payment | undefined>;
  /**
   * The payment, its row locked until the transaction ends (PostgreSQL: SELECT … FOR UPDATE; SQLite:
   * the store's transactions run one at a time already), so events about one payment apply one after
   * the other. Inside a transaction only.
   */
  lock(id: string): Promise<Payment | undefined>;
  /**
   * Marks the payment fulfilled at `now` unless it is already (status created → succeeded; a refund or
   * dispute recorded before keeps its status). True when this call marked it.
   */
  markFulfilled(id: string, now: number): Promise<boolean>;
  /** Whether one of the user's payments has an open dispute (the spend guard). */
  hasOpenDispute(userId: string): Promise<boolean>;
  /**
   * Inside a spending transaction, before the dispute check: holds the spender's user row until the
   * commit (PostgreSQL `FOR UPDATE`; SQLite's writer is serialised already), so a dispute whose
   * reversal reaches that row either commits first and is seen by the check, or waits for the spend.
   */
  lockSpender(userId: string): Promise<void>;
  listRefunds(paymentId: string): Promise<PaymentRefund[]>;
  /**
   * Inserts or updates one refund of `paymentId`. A failed or canceled refund stays so; a refund id
   * recorded for another payment is left alone.
   */
  upsertRefund(
    refund: { id: string; paymentId: string; amountCents: number; status: string },
    now: number,
  ): Promise<void>;
  /** Keeps the highest charge.refunded total seen. */
  raiseChargeRefunded(id: string, cents: number): Promise<void>;
  setDispute(
    id: string,
    dispute: { disputeId: string; cents: number; state: DisputeState; at: number | null },
  ): Promise<void>;
  setStatus(id: string, status: string): Promise<void>;
  /** Records one ledger adjustment: the status, reversedCoins += delta, adjustments += 1. */
  recordAdjustment(id: string, status: string, delta: number): Promise<void>;
}

export function paymentsRepo(h: DbHandle): PaymentsRepository {
  return h.kind === 'sqlite' ? new SqlitePaymentsRepository(h.db) : new PgPaymentsRepository(h.db);
}

import type { DbHandle } from '../db/engine.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { paymentRefunds, payments, users, type Payment, type PaymentRefund } from '../db/schema.ts';
import { getForUpdate } from '../db/query.ts';

// Card payments (Stripe PaymentIntents), their refunds and dispute (decision 044): one query
// definition for both engines, held to its contract by payments-repo.test.ts on both.

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

export class PaymentsRepository {
  constructor(private readonly h: DbHandle) {}

  /** Inserts the payment (status created) unless its id exists; returns the row stored under the id. */
  async insertIfNew(payment: NewPayment): Promise<Payment> {
    // On PostgreSQL a concurrent insert of the same id waits for the first's commit, then inserts
    // nothing; the SELECT after it (a new statement under READ COMMITTED) sees the first one's row.
    const inserted = await this.h.q
      .insert(payments)
      .values({ ...payment, status: 'created' })
      .onConflictDoNothing({ target: payments.id })
      .returning()
      .get();
    const row = inserted ?? (await this.find(payment.id));
    if (!row) throw new Error(`payment ${payment.id} vanished inside its own transaction`);
    return row;
  }

  async find(id: string): Promise<Payment | undefined> {
    return this.h.q.select().from(payments).where(eq(payments.id, id)).get();
  }

  /**
   * The payment, its row locked until the transaction ends (PostgreSQL: SELECT … FOR UPDATE; SQLite:
   * the store's transactions run one at a time already), so events about one payment apply one after
   * the other. Inside a transaction only.
   */
  async lock(id: string): Promise<Payment | undefined> {
    return getForUpdate(this.h, this.h.q.select().from(payments).where(eq(payments.id, id)));
  }

  /**
   * Marks the payment fulfilled at `now` unless it is already (status created → succeeded; a refund or
   * dispute recorded before keeps its status). True when this call marked it.
   */
  async markFulfilled(id: string, now: number): Promise<boolean> {
    const rows = await this.h.q
      .update(payments)
      .set({
        fulfilledAt: now,
        status: sql`CASE WHEN ${payments.status} = 'created' THEN 'succeeded' ELSE ${payments.status} END`,
      })
      .where(and(eq(payments.id, id), isNull(payments.fulfilledAt)))
      .returning({ id: payments.id })
      .all();
    return rows.length > 0;
  }

  /** Whether one of the user's payments has an open dispute (the spend guard). */
  async hasOpenDispute(userId: string): Promise<boolean> {
    const open = await this.h.q
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.disputeStatus, 'open')))
      .limit(1)
      .get();
    return open !== undefined;
  }

  /**
   * Inside a spending transaction, before the dispute check: holds the spender's user row until the
   * commit (PostgreSQL `FOR UPDATE`; SQLite's writer is serialised already), so a dispute whose
   * reversal reaches that row either commits first and is seen by the check, or waits for the spend.
   */
  async lockSpender(userId: string): Promise<void> {
    await getForUpdate(this.h, this.h.q.select({ id: users.id }).from(users).where(eq(users.id, userId)));
  }

  async listRefunds(paymentId: string): Promise<PaymentRefund[]> {
    return this.h.q.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId)).all();
  }

  /**
   * Inserts or updates one refund of `paymentId`. A failed or canceled refund stays so; a refund id
   * recorded for another payment is left alone.
   */
  async upsertRefund(
    refund: { id: string; paymentId: string; amountCents: number; status: string },
    now: number,
  ): Promise<void> {
    await this.h.q
      .insert(paymentRefunds)
      .values({ ...refund, updatedAt: now })
      .onConflictDoUpdate({
        target: paymentRefunds.id,
        set: {
          amountCents: refund.amountCents,
          status: sql`CASE WHEN ${paymentRefunds.status} IN ('failed', 'canceled') THEN ${paymentRefunds.status} ELSE ${refund.status} END`,
          updatedAt: now,
        },
        setWhere: sql`${paymentRefunds.paymentId} = ${refund.paymentId}`,
      })
      .run();
  }

  /** Keeps the highest charge.refunded total seen. */
  async raiseChargeRefunded(id: string, cents: number): Promise<void> {
    await this.h.q
      .update(payments)
      .set({ chargeRefundedCents: cents })
      .where(and(eq(payments.id, id), sql`${payments.chargeRefundedCents} < ${cents}`))
      .run();
  }

  async setDispute(
    id: string,
    dispute: { disputeId: string; cents: number; state: DisputeState; at: number | null },
  ): Promise<void> {
    await this.h.q
      .update(payments)
      .set({
        disputeId: dispute.disputeId,
        disputeCents: dispute.cents,
        disputeStatus: dispute.state,
        disputeAt: dispute.at,
      })
      .where(eq(payments.id, id))
      .run();
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.h.q.update(payments).set({ status }).where(eq(payments.id, id)).run();
  }

  /** Records one ledger adjustment: the status, reversedCoins += delta, adjustments += 1. */
  async recordAdjustment(id: string, status: string, delta: number): Promise<void> {
    await this.h.q
      .update(payments)
      .set({
        status,
        reversedCoins: sql`${payments.reversedCoins} + ${delta}`,
        adjustments: sql`${payments.adjustments} + 1`,
      })
      .where(eq(payments.id, id))
      .run();
  }
}

export function paymentsRepo(h: DbHandle): PaymentsRepository {
  return new PaymentsRepository(h);
}

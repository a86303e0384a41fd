import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { paymentRefunds, payments, type Payment, type PaymentRefund } from '../db/schema.ts';
import type { DisputeState, NewPayment, PaymentsRepository } from './payments-repo.ts';

export class SqlitePaymentsRepository implements PaymentsRepository {
  constructor(private readonly db: DbOrTx) {}

  async insertIfNew(payment: NewPayment): Promise<Payment> {
    this.db
      .insert(payments)
      .values({ ...payment, status: 'created' })
      .onConflictDoNothing({ target: payments.id })
      .run();
    const row = await this.find(payment.id);
    if (!row) throw new Error(`payment ${payment.id} vanished inside its own transaction`);
    return row;
  }

  async find(id: string): Promise<Payment | undefined> {
    return this.db.select().from(payments).where(eq(payments.id, id)).get();
  }

  async lock(id: string): Promise<Payment | undefined> {
    // The store's mutex: no other transaction runs until this one ends.
    return this.find(id);
  }

  async markFulfilled(id: string, now: number): Promise<boolean> {
    const rows = this.db
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

  async hasOpenDispute(userId: string): Promise<boolean> {
    const open = this.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.disputeStatus, 'open')))
      .limit(1)
      .get();
    return open !== undefined;
  }

  async lockSpender(): Promise<void> {
    // One writer at a time (the store's mutex around BEGIN IMMEDIATE): nothing to lock.
  }

  async listRefunds(paymentId: string): Promise<PaymentRefund[]> {
    return this.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId)).all();
  }

  async upsertRefund(
    refund: { id: string; paymentId: string; amountCents: number; status: string },
    now: number,
  ): Promise<void> {
    this.db
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

  async raiseChargeRefunded(id: string, cents: number): Promise<void> {
    this.db
      .update(payments)
      .set({ chargeRefundedCents: cents })
      .where(and(eq(payments.id, id), sql`${payments.chargeRefundedCents} < ${cents}`))
      .run();
  }

  async setDispute(
    id: string,
    dispute: { disputeId: string; cents: number; state: DisputeState; at: number | null },
  ): Promise<void> {
    this.db
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
    this.db.update(payments).set({ status }).where(eq(payments.id, id)).run();
  }

  async recordAdjustment(id: string, status: string, delta: number): Promise<void> {
    this.db
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

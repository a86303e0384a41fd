import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { paymentRefunds, payments, users } from '../db/schema.pg.ts';
import type { Payment, PaymentRefund } from '../db/schema.ts';
import type { DisputeState, NewPayment, PaymentsRepository } from './payments-repo.ts';

export class PgPaymentsRepository implements PaymentsRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async insertIfNew(payment: NewPayment): Promise<Payment> {
    // A concurrent insert of the same id waits for the first's commit, then inserts nothing; the
    // SELECT after it (a new statement under READ COMMITTED) sees the first one's row.
    const [inserted] = await this.db
      .insert(payments)
      .values({ ...payment, status: 'created' })
      .onConflictDoNothing({ target: payments.id })
      .returning();
    const row = inserted ?? (await this.find(payment.id));
    if (!row) throw new Error(`payment ${payment.id} vanished inside its own transaction`);
    return row;
  }

  async find(id: string): Promise<Payment | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, id));
    return row;
  }

  async lock(id: string): Promise<Payment | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.id, id)).for('update');
    return row;
  }

  async markFulfilled(id: string, now: number): Promise<boolean> {
    const rows = await this.db
      .update(payments)
      .set({
        fulfilledAt: now,
        status: sql`CASE WHEN ${payments.status} = 'created' THEN 'succeeded' ELSE ${payments.status} END`,
      })
      .where(and(eq(payments.id, id), isNull(payments.fulfilledAt)))
      .returning({ id: payments.id });
    return rows.length > 0;
  }

  async hasOpenDispute(userId: string): Promise<boolean> {
    const open = await this.db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.disputeStatus, 'open')))
      .limit(1);
    return open.length > 0;
  }

  async lockSpender(userId: string): Promise<void> {
    await this.db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  }

  async listRefunds(paymentId: string): Promise<PaymentRefund[]> {
    return this.db.select().from(paymentRefunds).where(eq(paymentRefunds.paymentId, paymentId));
  }

  async upsertRefund(
    refund: { id: string; paymentId: string; amountCents: number; status: string },
    now: number,
  ): Promise<void> {
    await this.db
      .insert(paymentRefunds)
      .values({ ...refund, updatedAt: now })
      .onConflictDoUpdate({
        target: paymentRefunds.id,
        set: {
          amountCents: refund.amountCents,
          status: sql`CASE WHEN ${paymentRefunds.status} IN ('failed', 'canceled') THEN ${paymentRefunds.status} ELSE ${refund.status}::text END`,
          updatedAt: now,
        },
        setWhere: sql`${paymentRefunds.paymentId} = ${refund.paymentId}`,
      });
  }

  async raiseChargeRefunded(id: string, cents: number): Promise<void> {
    await this.db
      .update(payments)
      .set({ chargeRefundedCents: cents })
      .where(and(eq(payments.id, id), sql`${payments.chargeRefundedCents} < ${cents}`));
  }

  async setDispute(
    id: string,
    dispute: { disputeId: string; cents: number; state: DisputeState; at: number | null },
  ): Promise<void> {
    await this.db
      .update(payments)
      .set({
        disputeId: dispute.disputeId,
        disputeCents: dispute.cents,
        disputeStatus: dispute.state,
        disputeAt: dispute.at,
      })
      .where(eq(payments.id, id));
  }

  async setStatus(id: string, status: string): Promise<void> {
    await this.db.update(payments).set({ status }).where(eq(payments.id, id));
  }

  async recordAdjustment(id: string, status: string, delta: number): Promise<void> {
    await this.db
      .update(payments)
      .set({
        status,
        reversedCoins: sql`${payments.reversedCoins} + ${delta}`,
        adjustments: sql`${payments.adjustments} + 1`,
      })
      .where(eq(payments.id, id));
  }
}

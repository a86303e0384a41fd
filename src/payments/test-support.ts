import { eq, sql } from 'drizzle-orm';
import { payments, transactions, type Payment, type Transaction } from '../db/schema.ts';
import * as pg from '../db/schema.pg.ts';

/**
 * Rows of one millisecond in the order they were written, on PostgreSQL (SQLite reads them in rowid
 * order): the writing transaction's id, then the row's place in it. Tests only (xmin wraps around).
 */
const INSERTION_ORDER = sql`xmin::text::bigint, ctid`;
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import type { CreatePaymentIntentResponse } from '../shared/payment-schemas.ts';
import { startFakeStripe, type FakeStripe } from '../sim/stripe/index.ts';

// Shared setup for the payments tests: the real app talking to the local fake Stripe.

export const WEBHOOK_SECRET = 'whsec_test';

export interface PaymentsTestEnv {
  app: TestApp;
  stripe: FakeStripe;
  close(): Promise<void>;
}

export async function startPaymentsTestApp(): Promise<PaymentsTestEnv> {
  const stripe = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  const app = await startTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    },
  });
  stripe.connect({ webhookUrl: `${app.url}/api/stripe/webhook`, now: () => app.clock.now() });
  return {
    app,
    stripe,
    async close() {
      await app.close();
      await stripe.close();
    },
  };
}

/** Creates a PaymentIntent through the API and returns its id (from the client secret). */
export async function buyPack(
  client: TestClient,
  packageType: string,
): Promise<{ id: string; body: CreatePaymentIntentResponse }> {
  const res = await client.post<CreatePaymentIntentResponse>('/api/create-payment-intent', { packageType });
  if (res.status !== 200)
    throw new Error(`create-payment-intent failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.clientSecret.split('_secret_')[0] ?? '';
  return { id, body: res.body };
}

/** The payment's row, on either engine. */
export async function paymentRow(app: TestApp, id: string): Promise<Payment | undefined> {
  const h = app.server.ctx.store.read;
  if (h.kind === 'sqlite') return h.db.select().from(payments).where(eq(payments.id, id)).get();
  const [row] = await h.db.select().from(pg.payments).where(eq(pg.payments.id, id));
  return row;
}

/** The user's purchase and purchase-reversal ledger rows, oldest first, on either engine. */
export async function purchaseRows(app: TestApp, userId: string): Promise<Transaction[]> {
  const h = app.server.ctx.store.read;
  const rows =
    h.kind === 'sqlite'
      ? h.db.select().from(transactions).where(eq(transactions.userId, userId)).all()
      : await h.db
          .select()
          .from(pg.transactions)
          .where(eq(pg.transactions.userId, userId))
          .orderBy(pg.transactions.createdAt, INSERTION_ORDER);
  return rows.filter((t) => t.type === 'purchase' || t.type === 'purchase_reversal');
}

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { debit, getBalance } from '../ledger/index.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { ledgerRows } from '../test/factories.ts';

// Issue 12 item 3: the welcome bonus is paid once per Discord account, even across account deletion;
// sign-out-everywhere and deletion forget the member's Discord tokens.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
afterEach(() => app.checkLedger());

const welcomes = (userId: string) => ledgerRows(app.server.ctx.store, userId, 'welcome');
/** The member's stored Discord token row (its user id), or undefined: on either engine. */
const tokenOf = async (userId: string) =>
  (
    await app.query<{ userId: string }>(
      sql`SELECT user_id AS "userId" FROM oauth_tokens WHERE user_id = ${userId}`,
    )
  )[0];

describe('welcome bonus once per Discord account', () => {
  it('does not pay it again after the account is deleted and the same Discord account signs up again', async () => {
    const first = await app.signIn('welcome_twice');
    expect(await welcomes(first.user!.id)).toHaveLength(1);
    expect(await tokenOf(first.user!.id)).toBeDefined();
    const deleted = await first.request('DELETE', '/api/account', { confirmUsername: 'welcome_twice' });
    expect(deleted.status).toBe(200);
    expect(await tokenOf(first.user!.id)).toBeUndefined();

    const again = await app.signIn('welcome_twice');
    expect(again.user!.id).not.toBe(first.user!.id);
    expect(await welcomes(again.user!.id)).toHaveLength(0);
    expect(await again.balanceCents()).toBe(0);
  });

  it('carries unpaid penalties to the next sign-up of the same Discord account (decision 029)', async () => {
    const first = await app.signIn('welcome_debtor');
    const userId = first.user!.id;
    // Spent the welcome bonus, then charged a 2.00 early-leave penalty it could not pay.
    const now = app.clock.now();
    await debit(app.server.ctx.store, { userId, cents: 500, type: 'campaign', description: 'Spent', now });
    await debit(app.server.ctx.store, {
      userId,
      cents: 200,
      type: 'leave_penalty',
      description: 'Left early',
      allowNegative: true,
      now,
    });
    expect(await first.balanceCents()).toBe(-200);
    const deleted = await first.request('DELETE', '/api/account', { confirmUsername: 'welcome_debtor' });
    expect(deleted.status).toBe(200);
    // The deleted row is square; the debt moved with the Discord account.
    expect(await getBalance(app.server.ctx.store, userId)).toBe(0);

    const again = await app.signIn('welcome_debtor');
    expect(await again.balanceCents()).toBe(-200);
    const carried = await app.query(
      sql`SELECT type, amount, description FROM transactions WHERE user_id = ${again.user!.id}`,
    );
    expect(carried).toMatchObject([
      { type: 'leave_penalty', amount: -200, description: 'Unpaid penalties of your deleted account' },
    ]);

    // Once: deleting the new account (debt still unpaid) and coming back carries the same 2.00, not more.
    expect(
      (await again.request('DELETE', '/api/account', { confirmUsername: 'welcome_debtor' })).status,
    ).toBe(200);
    const third = await app.signIn('welcome_debtor');
    expect(await third.balanceCents()).toBe(-200);
  });

  it('carries nothing for an account deleted with a positive balance (forfeited)', async () => {
    const first = await app.signIn('welcome_saver');
    expect((await first.request('DELETE', '/api/account', { confirmUsername: 'welcome_saver' })).status).toBe(
      200,
    );
    const again = await app.signIn('welcome_saver');
    expect(await again.balanceCents()).toBe(0);
  });

  it('forgets the Discord tokens on sign-out everywhere', async () => {
    const member = await app.signIn('welcome_signout');
    expect(await tokenOf(member.user!.id)).toBeDefined();
    expect((await member.post('/api/auth/sign-out-everywhere')).status).toBe(200);
    expect(await tokenOf(member.user!.id)).toBeUndefined();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { oauthTokens, transactions } from '../db/schema.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

// Issue 12 item 3: the welcome bonus is paid once per Discord account, even across account deletion;
// sign-out-everywhere and deletion forget the member's Discord tokens.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());
afterEach(() => app.assertLedger());

const welcomes = (userId: string) =>
  app.server.ctx.db
    .select()
    .from(transactions)
    .where(eq(transactions.userId, userId))
    .all()
    .filter((t) => t.type === 'welcome');
const tokenOf = (userId: string) =>
  app.server.ctx.db.select().from(oauthTokens).where(eq(oauthTokens.userId, userId)).get();

describe('welcome bonus once per Discord account', () => {
  it('does not pay it again after the account is deleted and the same Discord account signs up again', async () => {
    const first = await app.signIn('welcome_twice');
    expect(welcomes(first.user!.id)).toHaveLength(1);
    expect(tokenOf(first.user!.id)).toBeDefined();
    const deleted = await first.request('DELETE', '/api/account', { confirmUsername: 'welcome_twice' });
    expect(deleted.status).toBe(200);
    expect(tokenOf(first.user!.id)).toBeUndefined();

    const again = await app.signIn('welcome_twice');
    expect(again.user!.id).not.toBe(first.user!.id);
    expect(welcomes(again.user!.id)).toHaveLength(0);
    expect(await again.balanceCents()).toBe(0);
  });

  it('forgets the Discord tokens on sign-out everywhere', async () => {
    const member = await app.signIn('welcome_signout');
    expect(tokenOf(member.user!.id)).toBeDefined();
    expect((await member.post('/api/auth/sign-out-everywhere')).status).toBe(200);
    expect(tokenOf(member.user!.id)).toBeUndefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './support.ts';

// The Account page's personal access tokens (decision 053), at phone width: created with a name, scopes
// and an expiry, shown once, working at once, listed without the secret, revoked at once.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('API access tokens on the Account page', () => {
  it('creates a token that works, shows it once, and revokes it', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'token_owner', { open: false });
    await page.goto('/account');
    await page.getByRole('heading', { name: 'API access tokens' }).waitFor();
    await page.getByText('No access tokens yet.').waitFor();

    await page.getByLabel('Token name').fill('Reward script');
    await page.locator('label', { hasText: 'Claim rewards' }).click();
    expect(await page.getByRole('checkbox', { name: /Claim rewards/ }).isChecked()).toBe(true);
    await page.getByLabel('Expires after').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Copy your new token now: it will not be shown again.').waitFor();
    const token = (await page.getByTestId('new-access-token').textContent()) ?? '';
    expect(token).toMatch(/^cs_pat_/);

    const list = page.getByRole('list', { name: 'Your access tokens' });
    await list.getByText('Reward script').waitFor();
    await list.getByText(`cs_pat_…${token.slice(-4)}`).waitFor();
    expect(await list.textContent()).not.toContain(token);

    const asScript = (path: string, init: RequestInit = {}) =>
      fetch(`${e2e.app.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    expect((await asScript('/api/auth/user')).status).toBe(200);
    const claim = await asScript('/api/hourly/claim', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'regular' }),
    });
    expect(claim.status).toBe(200);

    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByTestId('new-access-token').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke Reward script' }).click();
    await page.getByText('Token revoked').first().waitFor();
    await page.getByText('No access tokens yet.').waitFor();
    expect((await asScript('/api/auth/user')).status).toBe(401);
    expect(errors).toEqual([]);
  });
});

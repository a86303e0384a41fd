import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './support.ts';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('app shell', () => {
  it('signs a new user in through the simulator page, shows 5.00 and their name, then logs out', async () => {
    const { page, errors } = await e2e.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: 'CoinSync' }).first().waitFor();
    await page.getByText('Free to start').waitFor();
    await page.getByRole('button', { name: 'Continue with Discord' }).click();

    // The simulator's authorize page: type a brand-new username and continue.
    await page.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
    const newUser = page.locator('input[name="username"]');
    await newUser.fill('first_timer');
    await newUser.press('Enter');

    await page.waitForURL(`${e2e.app.url}/`);
    await page.getByText('first_timer', { exact: true }).first().waitFor();
    await page.getByText('5.00').first().waitFor();
    for (const tab of [
      'Discover',
      'Featured',
      'Socials',
      'Rewards',
      'Buy Coins',
      'My Campaigns',
      'Dashboard',
      'Submit',
    ]) {
      await page.getByRole('link', { name: tab, exact: true }).first().waitFor();
    }
    await page
      .getByText(/not affiliated with/i)
      .first()
      .waitFor();

    // The 404 page answers HTTP 404 (issue 28 item 11); the browser logs that status as a console error.
    const missing = await page.goto('/no/such/page');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: '404 - Page Not Found' }).waitFor();
    expect(errors.splice(0)).toEqual([
      expect.stringMatching(/status of 404 \(Not Found\) @ .*\/no\/such\/page$/),
    ]);
    await page.getByText("The page you're looking for doesn't exist or has been moved.").waitFor();
    await page.getByRole('link', { name: 'Go Back Home' }).click();
    await page.waitForURL(`${e2e.app.url}/`);

    await page
      .getByRole('button', { name: /log ?out/i })
      .first()
      .click();
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(401);
    expect(errors).toEqual([]);
  });

  it('shows the terms signed out, with the last-updated date and a way back', async () => {
    // The server's HTML already carries each page's own title and description (no script needed).
    for (const [path, title] of [
      ['/terms', 'Terms of Service | CoinSync'],
      ['/privacy', 'Privacy Policy | CoinSync'],
    ]) {
      const html = await (await fetch(`${e2e.app.url}${path}`)).text();
      expect(html, path).toContain(`<title>${title}</title>`);
      expect(html, path).not.toContain('<title>CoinSync - Grow your Discord community</title>');
    }
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await page.goto('/terms');
    await page
      .getByText(/October 19, 2025/)
      .first()
      .waitFor();
    await expect.poll(() => page.title()).toMatch(/Terms of Service/);
    await page.getByText(/13/).first().waitFor();
    await page.getByRole('link', { name: /back/i }).first().click();
    await page.waitForURL(`${e2e.app.url}/`);
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    await page.goto('/privacy');
    await expect.poll(() => page.title()).toMatch(/Privacy Policy/);
    await page
      .getByText(/72 hours/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the login page at any path when signed out, and says when sign-in failed', async () => {
    const { page } = await e2e.newPage();
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    await page.goto('/?login=failed');
    await page.getByText(/sign-in did not complete/i).waitFor();
  });
});

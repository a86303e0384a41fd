import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, waitUntilInteractive, type E2E, renderedHtml } from './support.ts';

/** Records every focus move of the page (in the browser: the test code has no DOM types). */
const FOCUS_TRAIL = `window.__focusTrail = [];
for (const type of ['focusin', 'focusout'])
  document.addEventListener(type, (e) => window.__focusTrail.push(
    Math.round(performance.now()) + ' ' + type + ' ' + e.target.tagName + ':' + (e.target.textContent || '').slice(0, 20)), true);`;

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('resilience', () => {
  it('a signed-out visit logs no console error (the me-query answers null, not 401)', async () => {
    const { page } = await e2e.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await page.goto('/');
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    await page.goto('/terms');
    await page
      .getByText(/October 19, 2025/)
      .first()
      .waitFor();
    expect(consoleErrors).toEqual([]);
  });

  it('an ended session returns to the login page with a notice, never zeros', async () => {
    const { page, context } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'expiring_user');
    await context.clearCookies(); // the session ends server-side as far as this browser is concerned
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByText('Your session has ended — sign in again').waitFor();
    await page.getByRole('button', { name: 'Continue with Discord' }).waitFor();
    expect(await page.getByText('Could not load').count()).toBe(0);
    expect(await page.getByTestId('coin-balance').count()).toBe(0);

    // Signing in again clears the notice.
    await e2e.signIn(page, 'expiring_user', { open: false });
    await page.goto('/');
    await page.getByTestId('coin-balance').waitFor();
    await page.reload();
    await page.getByTestId('coin-balance').waitFor();
    expect(await page.getByText('Your session has ended — sign in again').count()).toBe(0);
  });

  it('a page chunk that fails to download reloads once, then shows the error boundary with the shell intact', async () => {
    const { page, context } = await e2e.newPage();
    await e2e.signIn(page, 'after_deploy');
    let documentLoads = 0;
    page.on('request', (req) => {
      if (req.resourceType() === 'document' && new URL(req.url()).pathname === '/dashboard')
        documentLoads += 1;
    });
    // As after a deploy: the old build's chunk name is gone.
    await context.route(/\/assets\/dashboard-page-[^/]+\.js$/, (route) =>
      route.fulfill({ status: 404, body: 'gone' }),
    );
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByText('This page could not be downloaded').waitFor();
    expect(documentLoads).toBe(1); // exactly one automatic reload
    await page.getByRole('button', { name: 'Reload page' }).waitFor();
    // The rest of the app still works.
    await page.getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByText('This page could not be downloaded').count()).toBe(0);
  });

  it('moves focus to the new page heading after navigation, and the skip link jumps to the content', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'keyboard_user');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('document.activeElement?.id')).toBe('main-content');

    await page.getByRole('link', { name: 'Rewards', exact: true }).click();
    await expect
      .poll(() =>
        page.evaluate<string>('`${document.activeElement?.tagName}:${document.activeElement?.textContent}`'),
      )
      .toMatch(/^H1:/);
    expect(errors).toEqual([]);
  });

  it('still moves focus to the heading when the next page takes seconds to arrive (a slow phone)', async () => {
    const { page, context, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'slow_phone_user');
    // The signed-in page's own title is in the server's HTML, as its content is (decision 031).
    const html = await renderedHtml(page.request, '/daily');
    expect(html).toContain('<title>Rewards | CoinSync</title>');
    // The Socials page's code arrives 7 s after it is asked for (longer than any fixed wait would allow).
    await context.route(/\/assets\/socials-page-[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 7000));
      await route.continue();
    });
    // What a failure needs to say (it failed once in four clean-clone runs at load ~20, focus on BODY, and
    // did not fail in ~30 runs under load since): whether the tab loaded a whole document after the click,
    // whether the page had hydrated when it was clicked, and where focus went in between.
    await page.addInitScript(FOCUS_TRAIL);
    const documents: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'document') documents.push(new URL(req.url()).pathname);
    });
    await page.goto('/daily');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // The app's own navigation is what this test is about: the heading is in the server's HTML, and a
    // click before hydration (seconds at load ~20) loads a whole new document, whose focus starts on BODY.
    await waitUntilInteractive(page);
    const hydratedAtClick = await page.evaluate<boolean>(
      "document.documentElement.hasAttribute('data-interactive')",
    );
    documents.length = 0;
    await page.getByRole('link', { name: 'Socials', exact: true }).first().click();
    try {
      await expect
        .poll(
          () =>
            page.evaluate<string>(
              '`${document.activeElement?.tagName}:${document.activeElement?.textContent}`',
            ),
          { timeout: 20_000 },
        )
        .toMatch(/^H1:/);
    } catch (err) {
      const trail = await page
        .evaluate<string>('JSON.stringify(window.__focusTrail ?? null)')
        .catch((e: unknown) => `not read: ${String(e)}`);
      throw new Error(
        `${(err as Error).message}\nhydrated at the click: ${hydratedAtClick}; documents loaded after it: ` +
          `${JSON.stringify(documents)}; focus moves (ms since the document started): ${trail}; errors: ` +
          JSON.stringify(errors),
        { cause: err },
      );
    }
    expect(errors).toEqual([]);
  });
});

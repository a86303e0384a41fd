import { expect } from 'vitest';
import {
  chromium,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import path from 'node:path';
import { startTestApp, walkSimulatorSignIn, type TestApp } from '../../src/test/harness.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

// Browser tests: the real product (built SPA + API) against the Discord simulator, in Debian's Chromium.
// WEB_DIST (and SSR_DIST, the server renderer) let a developer point at a private build; `npm test` builds
// dist/web and dist/ssr first. The pages are server-rendered and hydrated, as in production (decision 031).

export interface E2E {
  app: TestApp;
  browser: Browser;
  close(): Promise<void>;
  /** A fresh browser context (own cookies) with a page that fails the test on console errors. */
  newPage(options?: {
    width?: number;
    height?: number;
    /** The browser's language (its Accept-Language); Chromium's default is en-US. */
    locale?: string;
  }): Promise<{ page: Page; context: BrowserContext; errors: string[] }>;
  /**
   * Signs in through the simulator's authorize page (login_hint picks the user), then opens the Dashboard
   * and waits for the name and hydration. `{ open: false }` stops at the session cookie: for a test whose
   * next step opens a page of its own or only sends requests, one page load and hydration fewer.
   */
  signIn(page: Page, username: string, options?: { open?: boolean }): Promise<void>;
}

/** Waits until the app has hydrated (or rendered) the page: main.tsx marks <html data-interactive>. */
export async function waitUntilInteractive(page: Page): Promise<void> {
  await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
}

/**
 * The server's HTML of a page once it is the rendered page. A render that has not come back within
 * RENDER_WAIT_MS gets the static shell (an empty root), and the late render serves the next load of the same
 * page (decision 047): on a loaded machine a fresh render worker's first renders take that long, so the page
 * is asked for again until it is the render. `request`: the page's or the context's (its cookies).
 */
export async function renderedHtml(request: APIRequestContext, pathname: string): Promise<string> {
  let html = '';
  await expect
    .poll(
      async () => {
        html = await (await request.get(pathname)).text();
        return html.includes('<div id="root"></div>');
      },
      { timeout: 60_000, interval: 1000 },
    )
    .toBe(false);
  return html;
}

export async function startE2E(options: Parameters<typeof startTestApp>[0] = {}): Promise<E2E> {
  const webDist = process.env.WEB_DIST ?? path.resolve('dist/web');
  const ssrDist = process.env.SSR_DIST ?? path.resolve('dist/ssr');
  const app = await startTestApp({ webDist, ssrDist, ...options });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  return {
    app,
    browser,
    async close() {
      await browser.close();
      await app.close();
    },
    async newPage({
      width = 1280,
      height = 900,
      locale,
    }: { width?: number; height?: number; locale?: string } = {}) {
      const context = await browser.newContext({
        viewport: { width, height },
        baseURL: app.url,
        ...(locale ? { locale } : {}),
      });
      // Playwright's waits are hang guards, not speed checks: its default of 30 s for an action, a wait or a
      // navigation was passed at load ~20 by a fresh browser's first page (its chunks and hydration).
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => {
        // A 401 from /api/auth/user is how the app learns it is signed out; the browser logs it.
        // Only our app's pages count (the simulator's pages are not the product).
        const where = msg.location().url || page.url();
        if (!where.startsWith(app.url)) return;
        if (msg.type() === 'error' && !/401 \(Unauthorized\)/.test(msg.text()))
          errors.push(`${msg.text()} @ ${where}`);
      });
      page.on('pageerror', (err) => errors.push(err.message));
      return { page, context, errors };
    },
    async signIn(page, username, { open = true } = {}) {
      // The authorization-code flow through the simulator, as the browser makes it, in the page's own
      // cookie jar (Playwright's request context shares the browser context's cookies) but without drawing
      // the login page and the simulator's authorize page: two of every sign-in's three page loads, in 76
      // sign-ins (decision 060, Session 15). The clicks themselves are the subject of the tests in
      // shell, habit-pages-ssr and login-static, which walk them in the page.
      const request = page.context().request;
      const send = async (url: string): Promise<Response> => {
        const answer = await request.get(url, { maxRedirects: 0 });
        const status = answer.status();
        return new Response([204, 304].includes(status) ? null : await answer.body(), {
          status,
          headers: answer.headersArray().map(({ name, value }): [string, string] => [name, value]),
        });
      };
      await walkSimulatorSignIn({ product: send, simulator: send }, app.url, username);
      // Many tests start elsewhere: 28 of the 65 sign-ins went to the Dashboard only to leave it at once
      // (decision 060, Session 18).
      if (!open) return;
      await page.goto('/');
      await page.getByText(username, { exact: true }).first().waitFor();
      // The page arrives server-rendered (decision 031): its buttons show before its JavaScript has run.
      await waitUntilInteractive(page);
    },
  };
}

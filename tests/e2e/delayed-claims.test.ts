import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';
import { addSocialTask, removeSocialTask } from '../../src/social/manage-social-tasks.ts';

// One app-wide delayed-claim mechanism (web/src/lib/delayed-claims.ts, issue 15): a claim started on the
// Socials page fires on whatever page is open when it is due, and a claim whose task was removed is
// dropped, never sent. The server runs on a frozen ManualClock; the browser's clock is installed at the
// same instant, and both are moved forward together (no test waits for the 15 s).

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});

/** localStorage entries holding pending social claims (evaluated in the page). */
async function storedSocialClaims(page: Page): Promise<string> {
  return page.evaluate<string>(
    "JSON.stringify(Object.entries(window.localStorage).filter(([key]) => key.startsWith('coinsync:pending-social-claims:')))",
  );
}

interface Opened {
  page: Page;
  context: BrowserContext;
  errors: string[];
  /** Every POST /api/social/:id/complete the page sent, with the page it was on at that moment. */
  completes: { taskId: string; on: string }[];
}

async function openSignedIn(username: string): Promise<Opened> {
  const { page, context, errors } = await e2e.newPage();
  // Task links open in a new tab; answer them locally (no internet in tests).
  await context.route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>stub</title>' }),
  );
  context.on('page', (popup) => {
    if (popup !== page) void popup.close();
  });
  const completes: Opened['completes'] = [];
  page.on('request', (req) => {
    const match = /\/api\/social\/([^/]+)\/complete$/.exec(new URL(req.url()).pathname);
    if (match && req.method() === 'POST')
      completes.push({ taskId: decodeURIComponent(match[1]!), on: new URL(page.url()).pathname });
  });
  await page.clock.install({ time: e2e.app.clock.now() });
  await e2e.signIn(page, username);
  return { page, context, errors, completes };
}

/** Starts a task from its card, with the browser's clock set to the server's at that moment. */
async function startTask(page: Page, testId: string): Promise<void> {
  await page.clock.setSystemTime(e2e.app.clock.now());
  const card = page.getByTestId(testId);
  // Socials arrives server-rendered (decision 031): a click before the app has hydrated the page does
  // nothing, and the start answer below never came (a 30 s waitForResponse timeout under load).
  await waitUntilInteractive(page);
  // The card counts down at once; the server's start answer is what the tests build on.
  const started = page.waitForResponse(
    (res) =>
      res.request().method() === 'POST' && /\/api\/social\/[^/]+\/start$/.test(new URL(res.url()).pathname),
  );
  await card.getByRole('button', { name: /Follow & Earn/ }).click();
  expect((await started).status()).toBe(200);
  await card.getByRole('button', { name: /Claiming in/ }).waitFor();
}

/** Moves the server's and the browser's clocks forward together. */
async function advanceBoth(page: Page, ms: number): Promise<void> {
  e2e.app.clock.advance(ms);
  await page.clock.fastForward(ms);
}

describe('delayed claims run app-wide', () => {
  it('a social claim started on Socials fires on another page once due', async () => {
    const ctx = e2e.app.server.ctx;
    const task = await addSocialTask(
      ctx.store,
      {
        platform: 'tiktok',
        title: 'Follow us on TikTok',
        url: 'https://www.tiktok.com/@coinsync',
        coins: 250,
      },
      ctx.clock.now(),
    );
    const { page, context, errors, completes } = await openSignedIn('wanderer');

    await page.goto('/socials');
    await startTask(page, 'social-task-tiktok');

    // Leave for Rewards through the navigation (no reload): the Socials page is gone.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Rewards' })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Rewards' }).waitFor();

    await advanceBoth(page, 16_000);
    await page.getByText('Task Completed!').waitFor();
    await page.getByText('+2.50 coins added to your balance').waitFor();
    expect(new URL(page.url()).pathname).toBe('/daily');
    // Sent from the Rewards page (an early try answered 425 would also have been sent from there).
    expect(completes.length).toBeGreaterThan(0);
    expect(completes.every((c) => c.taskId === task.id && c.on === '/daily')).toBe(true);
    expect(await storedSocialClaims(page)).toBe('[]');
    const rows = ctx.sqlite.prepare("SELECT amount FROM transactions WHERE type = 'social'").all();
    expect(rows).toEqual([{ amount: 250 }]);
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a due claim for a task removed meanwhile is dropped, never sent', async () => {
    const ctx = e2e.app.server.ctx;
    const task = await addSocialTask(
      ctx.store,
      {
        platform: 'instagram',
        title: 'Follow us on Instagram',
        url: 'https://www.instagram.com/coinsync',
        coins: 200,
      },
      ctx.clock.now(),
    );
    const { page, context, errors, completes } = await openSignedIn('leaver');

    await page.goto('/socials');
    await startTask(page, 'social-task-instagram');
    expect(await storedSocialClaims(page)).toContain(task.id);
    // Removed while the claim waits (its 15 s have not passed: the browser's clock was just set).
    expect(await removeSocialTask(ctx.store, task.id)).toBe(true);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    await advanceBoth(page, 16_000);
    // The scheduler asked for the task list, found the task gone and forgot the claim.
    await expect.poll(() => storedSocialClaims(page), { timeout: 10_000 }).toBe('[]');
    expect(completes).toEqual([]);
    expect(await page.getByText('Task not found').count()).toBe(0);
    expect(await page.getByText(/^Error$/).count()).toBe(0);
    const rows = ctx.sqlite.prepare("SELECT amount FROM transactions WHERE type = 'social'").all();
    expect(rows).toEqual([{ amount: 250 }]); // only the first test's task
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
    await context.close();
  });
});

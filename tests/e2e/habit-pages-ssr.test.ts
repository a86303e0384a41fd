import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../src/clock.ts';
import { addSocialTask } from '../../src/social/manage-social-tasks.ts';
import { insertCampaign, insertJoin } from '../../src/test/factories.ts';
import { startE2E, waitUntilInteractive, type E2E, renderedHtml } from './support.ts';

// The habit pages render on the server with their data (decision 031, issue 28 item 4): Rewards with its
// status and countdowns, Socials' task list, My Campaigns, My Joins and History's first rows are in the
// HTML before any script runs, and the browser hydrates them without a mismatch (React error #418 would be
// a console error) — in a time zone far from the server's, at phone width.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('server-rendered habit pages', () => {
  it('carry their main action in the HTML and hydrate without a mismatch', async () => {
    const ctx = e2e.app.server.ctx;
    const owner = await e2e.app.signIn('ssr_owner');
    const member = await e2e.app.signIn('ssr_member');
    await addSocialTask(
      ctx.store,
      {
        platform: 'tiktok',
        title: 'Follow us on TikTok',
        url: 'https://www.tiktok.com/@coinsync',
        coins: 250,
      },
      ctx.clock.now(),
    );
    const campaign = await insertCampaign(ctx.store, { ownerId: member.user!.id, name: 'Member Campaign' });
    const elsewhere = await insertCampaign(ctx.store, { ownerId: owner.user!.id, name: 'Verified Valley' });
    // A verified join whose stay ends at a time of day: the date and time differ between time zones.
    const now = ctx.clock.now();
    await insertJoin(ctx.store, {
      userId: member.user!.id,
      campaignId: elsewhere.id,
      joinedAt: now - HOUR,
      verified: true,
      coinsAwarded: true,
      verifiedAt: now - HOUR,
      rewardCents: 50,
      minStayMs: 2 * DAY + 7 * HOUR,
      penaltyCents: 200,
    });
    // A claimed hourly reward: Rewards shows a countdown for it.
    expect((await member.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    expect(campaign.name).toBe('Member Campaign');

    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: e2e.app.url,
      timezoneId: 'Pacific/Kiritimati',
    });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (msg) => {
        // Only our app's pages count (as in support.ts: the simulator's pages are not the product).
        const where = msg.location().url || page.url();
        if (!where.startsWith(e2e.app.url)) return;
        if (msg.type() === 'error' && !/401 \(Unauthorized\)/.test(msg.text()))
          errors.push(`${msg.text()} @ ${where}`);
      });
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto('/');
      await page.getByRole('button', { name: 'Continue with Discord' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
      const authorize = new URL(page.url());
      authorize.searchParams.set('login_hint', 'ssr_member');
      await page.goto(authorize.toString());
      await page.waitForURL(`${e2e.app.url}/`);
      await waitUntilInteractive(page);

      // What each page's HTML must already hold (its main action), before any script.
      const pages: [string, (string | RegExp)[]][] = [
        ['/daily', ['Claim Bonus Reward', 'Claim Daily Reward', /\d+ minutes/]],
        ['/socials', ['Follow us on TikTok']],
        ['/campaigns', ['Member Campaign']],
        ['/joins', ['Verified Valley', 'stay until']],
        ['/history', ['Hourly reward']],
      ];
      for (const [pathname, expected] of pages) {
        const html = await renderedHtml(page.request, pathname);
        const root = /<div id="root">([\s\S]*)<\/div>/.exec(html)?.[1] ?? '';
        for (const text of expected) {
          if (typeof text === 'string') expect(root, `${pathname}: ${text}`).toContain(text);
          else expect(root, `${pathname}: ${String(text)}`).toMatch(text);
        }
        expect(root, pathname).not.toMatch(/Loading (rewards|tasks)/);

        // Hydration in a time zone 14 hours from UTC: no mismatch, no error.
        await page.goto(pathname);
        await waitUntilInteractive(page);
      }
      // The hydrated page is live: its main action works.
      await page.goto('/daily');
      await waitUntilInteractive(page);
      await page.getByRole('button', { name: 'Claim Bonus Reward' }).click();
      await page.getByText('Bonus Reward Claimed!').first().waitFor();
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

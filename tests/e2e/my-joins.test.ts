import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, HOUR } from '../../src/clock.ts';
import { campaignJoins } from '../../src/db/schema.ts';
import { createCampaign } from '../../src/test/factories.ts';
import { startE2E, type E2E } from './support.ts';

// My Joins (issue 12 item 6): every join with its state in words, the safe-to-leave date, Join again.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

const SHOTS = process.env.SCREENSHOT_DIR;

describe('My Joins page', () => {
  it('shows each state and offers Join again for an expired join', async () => {
    const owner = await e2e.app.signIn('joins_owner');
    const member = await e2e.app.signIn('joins_viewer');
    const db = e2e.app.server.ctx.db;
    const now = e2e.app.clock.now();
    const row = (name: string, join: Partial<typeof campaignJoins.$inferInsert>) => {
      const campaign = createCampaign(db, { ownerId: owner.user!.id, name });
      db.insert(campaignJoins)
        .values({ userId: member.user!.id, campaignId: campaign.id, joinedAt: now - HOUR, ...join })
        .run();
    };
    row('Waiting Room', { joinedAt: now - 5 * 60_000 });
    row('Verified Valley', {
      verified: true,
      coinsAwarded: true,
      verifiedAt: now - HOUR,
      rewardCents: 50,
      minStayMs: 2 * DAY,
      penaltyCents: 200,
    });
    row('Stayed Summit', {
      joinedAt: now - 4 * DAY,
      verified: true,
      coinsAwarded: true,
      verifiedAt: now - 4 * DAY,
      rewardCents: 75,
      minStayMs: 2 * DAY,
      penaltyCents: 200,
    });
    row('Leaver Lodge', {
      joinedAt: now - 2 * DAY,
      verified: true,
      coinsAwarded: true,
      verifiedAt: now - 2 * DAY,
      rewardCents: 50,
      minStayMs: 2 * DAY,
      penaltyCents: 200,
      hasLeft: true,
      leftAt: now - DAY,
      leftReason: 'leave',
      penalized: true,
    });
    row('Expired Estate', { joinedAt: now - 8 * DAY });

    for (const width of [1280, 390]) {
      const { page, errors } = await e2e.newPage({ width, height: width === 390 ? 844 : 900 });
      await e2e.signIn(page, 'joins_viewer', { open: false });
      await page.goto('/joins');
      await page.getByRole('heading', { name: 'My Joins' }).waitFor();
      await page.getByText('Waiting for you to accept the invite').waitFor();
      await page.getByText(/^Verified \+0\.50, stay until /).waitFor();
      await page.getByText('Stayed, keep or leave freely').waitFor();
      await page.getByText('Left early −2.00').waitFor();
      await page.getByText('Expired, join again').waitFor();
      // Each card's own join date and time (issue 28 item 11: one date repeated is gone): two joins of the
      // same day an hour apart read differently, and the stay's end is said once (in the badge).
      const joined = async (name: string) =>
        page.getByRole('article', { name }).locator('time').first().textContent();
      const waiting = await joined('Waiting Room');
      const verified = await joined('Verified Valley');
      expect(waiting).toMatch(/\d{1,2}:\d{2}\s[AP]M/);
      expect(verified).not.toBe(waiting);
      expect(
        await page
          .getByRole('article', { name: 'Verified Valley' })
          .getByText(/stay until/)
          .count(),
      ).toBe(1);
      if (SHOTS) await page.screenshot({ path: `${SHOTS}/my-joins-${width}.png`, fullPage: true });
      expect(errors).toEqual([]);
    }

    const { page, context } = await e2e.newPage();
    await e2e.signIn(page, 'joins_viewer', { open: false });
    await page.goto('/joins');
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'Join Expired Estate again' }).click();
    await popup;
    await page.getByText('Invite opened').waitFor();
    await page
      .getByRole('article', { name: 'Expired Estate' })
      .getByText('Waiting for you to accept the invite')
      .waitFor();
  });
});

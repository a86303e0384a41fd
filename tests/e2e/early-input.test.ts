import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';
import { createCampaign, findCampaign, findUserByDiscordId } from '../../src/test/factories.ts';

// A member on a slow phone types into or clicks a server-rendered page before its JavaScript has hydrated
// it (src/shared/early-input.ts): what they typed reaches the form's state, and their click is not lost.
// Hydration is held back by holding the app's entry module until the test has typed and clicked.

let e2e: E2E;

beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** Holds the app's entry module (so hydration) until the returned function is called. */
async function holdHydration(context: BrowserContext): Promise<() => void> {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await context.route('**/assets/index-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Loads `path` with hydration held. Loaded once before, normally: the page is then served from the page
 * cache (its data unchanged), so it arrives server-rendered even when the machine is too busy to render.
 */
async function openBeforeHydration(page: Page, path: string): Promise<() => void> {
  await page.goto(path);
  await waitUntilInteractive(page);
  const release = await holdHydration(page.context());
  await page.goto(path, { waitUntil: 'commit' });
  return release;
}

describe('input before hydration', () => {
  it('keeps an invite typed into the server-rendered field: the form takes it once hydrated', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    await e2e.signIn(page, 'early_owner');
    const state = e2e.app.sim.state;
    const discordUser = state.findUserByUsername('early_owner')!;
    const owner = findUserByDiscordId(e2e.app.server.ctx.db, discordUser.id)!;
    const guild = state.createGuild({ name: 'Quiet Harbour', ownerId: discordUser.id });
    const campaign = createCampaign(e2e.app.server.ctx.db, {
      ownerId: owner.id,
      name: 'Quiet Harbour',
      guildId: guild.id,
      inviteCode: 'harbour-old',
      inviteLink: 'https://discord.gg/harbour-old',
      inviteValid: false,
    });
    state.createInvite(guild.id, { code: 'harbour-new', maxAge: 0 });

    const release = await openBeforeHydration(page, '/campaigns');
    const card = page.getByRole('article', { name: 'Quiet Harbour' });
    const field = card.getByLabel('New invite link for Quiet Harbour');
    await field.fill('https://discord.gg/harbour-new');
    expect(await page.locator('html[data-interactive]').count()).toBe(0);
    release();
    await waitUntilInteractive(page);
    // The button is enabled by the form's state (empty before the fix: it stayed disabled).
    await card.getByRole('button', { name: 'Update Invite' }).click();
    await page.getByText('Your server is back on the discover page.').waitFor();
    expect(findCampaign(e2e.app.server.ctx.db, campaign.id)).toMatchObject({
      inviteValid: true,
      inviteCode: 'harbour-new',
    });
    expect(errors).toEqual([]);
  });

  it('replays a click on a button made before hydration once the page has hydrated', async () => {
    const { page, errors } = await e2e.newPage();
    await e2e.signIn(page, 'early_clicker', { open: false });
    const release = await openBeforeHydration(page, '/daily');
    const hourly = page.getByTestId('reward-card-hourly');
    await hourly.getByRole('button', { name: 'Claim Hourly Reward' }).click();
    expect(await page.locator('html[data-interactive]').count()).toBe(0);
    release();
    await page.getByText('Hourly Reward Claimed!').waitFor();
    await expect.poll(() => page.getByTestId('coin-balance').textContent()).toContain('6.00');
    // Once: the held click was replayed a single time.
    await hourly.getByRole('button', { name: 'Come Back Later' }).waitFor();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });
});

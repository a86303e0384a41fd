import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { startE2E, type E2E } from './support.ts';
import { users } from '../../src/db/schema.ts';
import { credit } from '../../src/ledger/ledger.ts';
import { CAMPAIGN_MESSAGES } from '../../src/shared/campaign-schemas.ts';

// Spending coins in the browser: submit each kind of campaign, promote from the Dashboard, see
// every debit in Recent Transactions, cancel from My Campaigns.

let e2e: E2E;
let page: Page;
let errors: string[];
const USER = 'spender';

function guildWithInvite(name: string, code: string, botMember = true) {
  const owner = e2e.app.sim.state.findUserByUsername(USER);
  if (!owner) throw new Error('owner not in simulator');
  const guild = e2e.app.sim.state.createGuild({ name, ownerId: owner.id, botMember });
  e2e.app.sim.state.createInvite(guild.id, { code, maxAge: 0 });
  return { guild, link: `https://discord.gg/${code}` };
}

async function fillForm(form: string, fields: Record<string, string>) {
  const scope = page.getByRole('form', { name: form });
  for (const [label, value] of Object.entries(fields))
    await scope.getByLabel(label, { exact: true }).fill(value);
  return scope;
}

/**
 * Issue 14: an error shows on its field too — aria-invalid, the message linked by aria-describedby —
 * and the field has focus.
 */
async function expectFieldError(field: Locator, message: string) {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const described = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).innerText()));
  expect(described).toContain(message);
  expect(
    await field.evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement),
  ).toBe(true);
}

async function expectToast(title: string, description: string) {
  const toasts = page.getByRole('region', { name: /^Notifications/ });
  await toasts.getByText(title, { exact: true }).waitFor();
  await toasts.getByText(description, { exact: true }).waitFor();
}

/** The computed text colour as r, g, b (this file is type-checked without DOM types). */
async function colorOf(locator: Locator): Promise<{ r: number; g: number; b: number }> {
  type Styles = { getComputedStyle(el: unknown): { color: string } };
  const css = await locator.evaluate((el) => (globalThis as unknown as Styles).getComputedStyle(el).color);
  const [r = 0, g = 0, b = 0] = (css.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return { r, g, b };
}

beforeAll(async () => {
  e2e = await startE2E();
  ({ page, errors } = await e2e.newPage());
  await e2e.signIn(page, USER);
  const db = e2e.app.server.ctx.db;
  const user = db.select().from(users).where(eq(users.discordUsername, USER)).get();
  if (!user) throw new Error('user not created by sign-in');
  await credit(e2e.app.server.ctx.store, {
    userId: user.id,
    cents: 30_000,
    type: 'purchase',
    description: 'Starter coins',
    now: e2e.app.clock.now(),
  });
});
afterAll(() => e2e.close());

describe('spending coins in the browser', () => {
  it('submits a regular campaign after client-side checks, and offers Invite Bot when the bot is missing', async () => {
    await page.goto('/submit');
    await page.getByRole('heading', { name: 'Submit Your Server' }).waitFor();
    expect(await page.getByRole('link', { name: /Invite Bot/ }).getAttribute('href')).toContain(
      '/oauth2/authorize?client_id=',
    );

    const { link } = guildWithInvite('Pixel Raiders', 'pixelraiders');
    let form = await fillForm('Regular campaign', {
      'Server Name': 'Pixel Raiders',
      'Invite Link': link,
      'Coins to Spend': '2',
    });
    await form.getByRole('button', { name: 'Submit Server' }).click();
    await expectToast('Validation Error', 'Minimum 3 coins required');
    await expectFieldError(form.getByLabel('Coins to Spend'), 'Minimum 3 coins required');
    // Editing the field clears its error.
    await form.getByLabel('Coins to Spend').fill('5');
    expect(await form.getByLabel('Coins to Spend').getAttribute('aria-invalid')).toBeNull();

    // A schema problem lands on the field it concerns (here the invite link), which takes focus.
    await form.getByLabel('Invite Link', { exact: true }).fill('not a link');
    await form.getByRole('button', { name: 'Submit Server' }).click();
    await expectToast('Validation Error', CAMPAIGN_MESSAGES.inviteInvalid);
    await expectFieldError(form.getByLabel('Invite Link', { exact: true }), CAMPAIGN_MESSAGES.inviteInvalid);
    await form.getByLabel('Invite Link', { exact: true }).fill(link);

    // The cost against the balance shows before Submit; an amount the balance cannot pay disables it
    // and says the spec's words (issue 28 item 8).
    await form.getByLabel('Coins to Spend').fill('400');
    await form
      .getByRole('status')
      .getByText('You need 400 coins to submit this server. You have 305.00 coins.', { exact: true })
      .waitFor();
    await form.getByTestId('balance-after').getByText('Not enough coins').waitFor();
    expect(await form.getByRole('button', { name: 'Submit Server' }).isDisabled()).toBe(true);

    await form.getByLabel('Coins to Spend').fill('10');
    await form.getByTestId('balance-after').getByText('295.00').waitFor();
    await form.getByRole('button', { name: 'Submit Server' }).click();
    await expectToast('Server Submitted!', "Your server has been added! You'll get 10 member(s).");
    await page.getByTestId('coin-balance').getByText('295.00').waitFor();
    // On to the new campaign, highlighted, with what happens next (issue 28 item 7).
    await page.waitForURL((url) => url.pathname === '/campaigns' && url.searchParams.has('new'));
    const fresh = page.locator('[data-testid="campaign-card"][data-highlighted]');
    await fresh.getByText('Pixel Raiders').waitFor();
    await fresh.getByTestId('what-happens-next').waitFor();
    await fresh.getByRole('button', { name: 'Copy invite link of Pixel Raiders' }).waitFor();
    await page.goto('/submit');

    const botless = guildWithInvite('Botless Club', 'botlessclub', false);
    form = await fillForm('Regular campaign', {
      'Server Name': 'Botless Club',
      'Invite Link': botless.link,
      'Coins to Spend': '5',
    });
    await form.getByRole('button', { name: 'Submit Server' }).click();
    await expectToast('Error', 'Please invite our bot to your server first, then submit again.');
    const invite = page.getByRole('alert').getByRole('link', { name: /Invite Bot/ });
    expect(await invite.getAttribute('href')).toContain(`guild_id=${botless.guild.id}`);
    expect(await invite.getAttribute('target')).toBe('_blank');
    // The refused submission is the one console error the browser logs here (a failed request).
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/status of 400 .*\/api\/servers$/);
    errors.length = 0;
  });

  it('submits a featured server (create, then promote) and a no-bot server', async () => {
    await page.getByRole('tab', { name: 'Featured' }).click();
    const { link } = guildWithInvite('Star Base', 'starbase');
    const form = await fillForm('Featured campaign', { 'Server Name': 'Star Base', 'Invite Link': '' });
    await form.getByRole('button', { name: /Submit & Promote/ }).click();
    await expectToast('Missing Information', 'Please fill in all fields');
    await expectFieldError(form.getByLabel('Invite Link', { exact: true }), 'Please fill in all fields');
    await form.getByLabel('Invite Link').fill(link);
    await form.getByRole('button', { name: /Submit & Promote/ }).click();
    await expectToast('Server Promoted!', 'Your server is now featured for 100 members');
    await page.waitForURL((url) => url.pathname === '/campaigns' && url.searchParams.has('new'));
    await page.locator('[data-testid="campaign-card"][data-highlighted]').getByText('Star Base').waitFor();

    await page.goto('/submit');
    await page.getByRole('tab', { name: 'No Bot' }).click();
    const quiet = guildWithInvite('Quiet Corner', 'quietcorner', false);
    const nobot = await fillForm('No-bot campaign', {
      'Server Name': 'Quiet Corner',
      'Invite Link': quiet.link,
      'Number of Members': '2',
    });
    await nobot.getByRole('button', { name: 'Add Server' }).click();
    await expectToast('Validation Error', 'Please enter a valid number of members (minimum 3)');
    await expectFieldError(
      nobot.getByLabel('Number of Members'),
      'Please enter a valid number of members (minimum 3)',
    );
    await nobot.getByLabel('Number of Members').fill('5');
    await nobot.getByRole('button', { name: 'Add Server' }).click();
    await expectToast('Server Added!', 'Your server is live on the discover page with 5 member(s).');
    await page.getByTestId('coin-balance').getByText('190.00').waitFor();
    // A no-bot campaign is named as one, not "Regular".
    const quietCard = page.locator('[data-testid="campaign-card"][data-highlighted]');
    await quietCard.getByText('Quiet Corner').waitFor();
    await quietCard.getByText('No-bot', { exact: true }).waitFor();
    expect(await quietCard.getByText('Regular', { exact: true }).count()).toBe(0);
  });

  it('promotes from the Dashboard and lists every debit in Recent Transactions', async () => {
    // One more small campaign, through the API with the browser's session.
    const tiny = guildWithInvite('Tiny Town', 'tinytown');
    const created = await page.request.post('/api/servers', {
      data: { name: 'Tiny Town', inviteLink: tiny.link, coinReward: '3' },
    });
    expect(created.status()).toBe(201);

    await page.goto('/dashboard');
    const pixel = page.getByTestId('my-server').filter({ hasText: 'Pixel Raiders' });
    const tinyRow = page.getByTestId('my-server').filter({ hasText: 'Tiny Town' });
    expect(await tinyRow.getByRole('button', { name: /Promote/ }).isEnabled()).toBe(true);
    await pixel.getByRole('button', { name: /Promote/ }).click();
    // A spend the spec does not confirm gets a confirmation: nothing happens until it is accepted.
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText(/Your balance will be 87\.00 coins/).waitFor();
    await page.getByTestId('coin-balance').getByText('187.00').waitFor();
    await confirm.getByRole('button', { name: 'Promote for 100 coins' }).click();
    await expectToast('Server Promoted!', 'Your server is now featured for 100 members');
    await pixel.getByText('Already Featured').waitFor();
    await page.getByTestId('coin-balance').getByText('87.00').waitFor();
    // Below 100 coins the remaining Promote button is disabled.
    expect(await tinyRow.getByRole('button', { name: /Promote/ }).isDisabled()).toBe(true);
    // The featured campaign submitted earlier cannot be promoted again.
    await page
      .getByTestId('my-server')
      .filter({ hasText: 'Star Base' })
      .getByText('Already Featured')
      .waitFor();

    const rows = page.getByTestId('transaction');
    await rows.filter({ hasText: 'Featured: Pixel Raiders (100 members)' }).getByText('-100.00').waitFor();
    const texts = await rows.allInnerTexts();
    const flat = texts.map((t) => t.replace(/\s+/g, ' '));
    expect(flat[0]).toContain('Featured: Pixel Raiders (100 members)');
    expect(
      flat.some((t) => t.includes('No-bot campaign: Quiet Corner (5 members)') && t.includes('-5.00')),
    ).toBe(true);
    expect(flat.some((t) => t.includes('Featured: Star Base (100 members)') && t.includes('-100.00'))).toBe(
      true,
    );
    expect(flat.some((t) => t.includes('Campaign: Pixel Raiders (10 members)') && t.includes('-10.00'))).toBe(
      true,
    );
    expect(flat.some((t) => t.includes('Starter coins') && t.includes('+300.00'))).toBe(true);
    // Colour: debits red, credits green.
    const debit = await colorOf(rows.filter({ hasText: 'No-bot campaign' }).getByText('-5.00'));
    const gain = await colorOf(rows.filter({ hasText: 'Starter coins' }).getByText('+300.00'));
    expect(debit.r).toBeGreaterThan(debit.g);
    expect(gain.g).toBeGreaterThan(gain.r);
    await page.getByText('Total Coins').waitFor();
  });

  it('cancels a campaign from My Campaigns after confirming', async () => {
    await page.goto('/campaigns');
    await page.getByRole('heading', { name: 'My Campaigns' }).waitFor();
    await page.getByText('Manage your server growth campaigns and track member joins.').waitFor();
    const cards = page.getByTestId('campaign-card');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(4);
    const pixel = cards.filter({ hasText: 'Pixel Raiders' });
    expect(await pixel.getByRole('link').getAttribute('target')).toBe('_blank');
    await pixel.getByText('110', { exact: true }).waitFor(); // 10 regular + 100 featured slots

    await pixel.getByRole('button', { name: 'Cancel Pixel Raiders' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel Campaign?' });
    await dialog.getByText('Nothing will be refunded for this server').waitFor();
    await dialog.getByText('Pixel Raiders').waitFor();
    await dialog.getByRole('button', { name: 'No, Keep Campaign' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await cards.count()).toBe(4);

    await pixel.getByRole('button', { name: 'Cancel Pixel Raiders' }).click();
    await dialog.getByRole('button', { name: 'Yes, Cancel Campaign' }).click();
    await expectToast('Campaign Canceled', 'Your campaign has been canceled successfully');
    await dialog.waitFor({ state: 'hidden' });
    await pixel.waitFor({ state: 'detached' });
    expect(await cards.count()).toBe(3);
    // Focus does not fall back to the top of the page: it moves to the card that took the place.
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (
              globalThis as unknown as {
                document: { activeElement: { getAttribute(n: string): string | null } | null };
              }
            ).document.activeElement?.getAttribute('aria-label') ?? null,
        ),
      )
      .toMatch(/^Cancel /);
    await page.getByTestId('coin-balance').getByText('87.00').waitFor();
    e2e.app.assertLedger();
    expect(errors).toEqual([]);
  });
});

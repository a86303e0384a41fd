import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES, type Locale } from '../../src/shared/i18n/index.ts';
import { grantCoins, insertCampaign, insertJoin, insertUser } from '../../src/test/factories.ts';
import { visitScreen } from './a11y-support.ts';
import { SIGNED_IN_SCREENS } from './screens.ts';
import { overflowing } from './overflow.ts';
import { startE2E, waitUntilInteractive, type E2E, renderedHtml } from './support.ts';

// The web app in six languages (decision 050): the language comes from the Discord locale at sign-in,
// the server renders the page in it, the switcher changes and keeps it, and every screen's text fits a
// 390 px phone in the longest language. I18N_SHOTS=dir also saves each screen in each language.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** The language whose web catalogue is longest (its texts are the likeliest not to fit). */
function longestLocale(): Locale {
  const size = (locale: Locale) =>
    readFileSync(path.resolve(`src/shared/i18n/locales/${locale}/web.json`), 'utf8').length;
  return [...SUPPORTED_LOCALES].sort((a, b) => size(b) - size(a))[0]!;
}

/** A text of `locale`'s web catalogue by its dotted key, with {{values}} filled in. */
function text(locale: Locale, key: string, values: Record<string, string> = {}): string {
  const catalogue = JSON.parse(
    readFileSync(path.resolve(`src/shared/i18n/locales/${locale}/web.json`), 'utf8'),
  ) as Record<string, unknown>;
  const found = key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
  if (typeof found !== 'string') throw new Error(`no text ${key} in ${locale}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

const DAY = 86_400_000;
let memberSeq = 0;

/**
 * Gives `username` a campaign with paid members (some gone: early, kicked, banned, after the stay), so My
 * Campaigns shows the quality summary and the card its Quality and Notifications dialogs.
 */
async function ownCampaign(username: string): Promise<string> {
  const [owner] = await e2e.app.query<{ id: string }>(
    sql`select id from users where discord_username = ${username}`,
  );
  const name = 'Wanderers Guild';
  const campaign = await insertCampaign(e2e.app.server.ctx.store, { ownerId: owner!.id, name });
  const now = e2e.app.clock.now();
  const gone = [null, null, 'leave', 'kick', 'ban', 'later'] as const;
  for (const [i, left] of gone.entries()) {
    memberSeq += 1;
    const verifiedAt = now - 40 * DAY;
    const ageDays = [10, 60, 200, 800, 2000, 20][i]!;
    const discordId = String(
      (BigInt(verifiedAt - ageDays * DAY - 1_420_070_400_000) << 22n) + BigInt(memberSeq),
    );
    const user = await insertUser(e2e.app.server.ctx.store, { discordId });
    const leftAt =
      left === null ? null : verifiedAt + (left === 'leave' ? 0.5 : left === 'later' ? 3 : 1.5) * DAY;
    await insertJoin(e2e.app.server.ctx.store, {
      userId: user.id,
      campaignId: campaign.id,
      joinedAt: verifiedAt - 60_000,
      verified: true,
      verifiedAt,
      coinsAwarded: true,
      rewardCents: 50,
      minStayMs: 2 * DAY,
      penaltyCents: 200,
      hasLeft: left !== null,
      leftAt,
      leftReason: left === null ? null : left === 'later' ? 'leave' : left,
      penalized: left === 'leave',
    });
  }
  return name;
}

/** The owner's dialogs and sections the screens alone do not show: each is checked, then `shot` taken. */
async function ownerViews(
  page: Page,
  locale: Locale,
  campaign: string,
  shot: (name: string) => Promise<void>,
): Promise<string[]> {
  const found: string[] = [];
  await visitScreen(page, '/campaigns');
  await page.getByTestId('quality-summary').waitFor();
  found.push(...(await overflowing(page)).map((o) => `/campaigns (quality summary): ${o}`));
  const card = page.getByRole('article', { name: campaign });
  for (const [view, button] of [
    ['quality', text(locale, 'campaigns.quality.buttonLabel', { name: campaign })],
    ['notifications', text(locale, 'campaigns.notifications.buttonLabel', { name: campaign })],
  ] as const) {
    await card.getByRole('button', { name: button, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The dialog's figures or form, not its loading state.
    await (view === 'quality'
      ? dialog.getByText(text(locale, 'campaigns.quality.accountAge')).waitFor()
      : dialog.getByText(text(locale, 'campaigns.notifications.log.empty')).waitFor());
    found.push(...(await overflowing(page)).map((o) => `${view} dialog: ${o}`));
    await shot(view);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
  await visitScreen(page, '/account');
  await waitUntilInteractive(page);
  await page.locator('#token-name').fill('Nightly reward script');
  await page.locator('form:has(#token-name) button[type=submit]').click();
  await page.getByTestId('new-access-token').waitFor();
  await page.getByRole('list', { name: text(locale, 'account.tokens.listLabel') }).waitFor();
  found.push(...(await overflowing(page)).map((o) => `/account (access tokens): ${o}`));
  await shot('account-tokens');
  return found;
}

/** A member whose Discord client speaks `discordLocale`, with some coins, signed in on a fresh page. */
async function member(username: string, discordLocale: string, width = 1280) {
  const user = e2e.app.sim.state.createUser({ username });
  e2e.app.sim.state.setUserLocale(user.id, discordLocale);
  const opened = await e2e.newPage({ width, height: 844 });
  await e2e.signIn(opened.page, username);
  return opened;
}

describe('the web app in the member’s language', () => {
  it('starts in the Discord locale, server-rendered, and the switcher changes and keeps it', async () => {
    const { page, context, errors } = await member('i18n_de', 'de');
    const html = await renderedHtml(context.request, '/daily');
    expect(html).toContain('Belohnungen'); // rendered by the server in German, before any script
    await page.goto('/daily');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Belohnungen');
    await expect.poll(() => page.evaluate<string>('document.documentElement.lang')).toBe('de');

    await page.goto('/account');
    await waitUntilInteractive(page); // a server-rendered select changed before hydration would be reset
    await page.getByTestId('language-switcher').selectOption('tr');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Hesap');
    await page.reload();
    await waitUntilInteractive(page);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Hesap');
    await page.getByTestId('language-switcher').selectOption('en');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Account');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('formats coins by locale', async () => {
    const { page, context } = await member('i18n_fr', 'fr');
    const [row] = await e2e.app.query<{ id: string }>(
      sql`select id from users where discord_username = 'i18n_fr'`,
    );
    await grantCoins(e2e.app.server.ctx.store, row!.id, 123_450);
    await page.goto('/account');
    // 5.00 welcome + 1,234.50: French groups with a narrow space and uses a decimal comma.
    await expect.poll(() => page.getByTestId('coin-balance').textContent()).toMatch(/1\s?239,50/);
    await context.close();
  });

  it(`every screen fits a 390 px phone in the longest language (${longestLocale()})`, async () => {
    const locale = longestLocale();
    const { page, context, errors } = await member('i18n_long', locale, 390);
    const campaign = await ownCampaign('i18n_long');
    const found: string[] = [];
    for (const screen of SIGNED_IN_SCREENS) {
      await visitScreen(page, screen);
      found.push(...(await overflowing(page)).map((o) => `${screen}: ${o}`));
    }
    found.push(...(await ownerViews(page, locale, campaign, () => Promise.resolve())));
    expect(found).toEqual([]);
    // The 404 page's own status is the one error the browser logs.
    expect(errors.filter((e) => !/404 \(Not Found\).*\/no-such-page$/.test(e))).toEqual([]);
    await context.close();
  });

  // I18N_SHOTS_LOCALES=de,tr narrows it (the whole set takes several minutes).
  it.runIf(process.env.I18N_SHOTS)(
    'screenshots of each screen in each language',
    { timeout: 1_800_000 },
    async () => {
      const dir = process.env.I18N_SHOTS!;
      const only = process.env.I18N_SHOTS_LOCALES?.split(',');
      mkdirSync(dir, { recursive: true });
      for (const locale of SUPPORTED_LOCALES.filter((l) => !only || only.includes(l)))
        for (const width of [390, 1280]) {
          const username = `shots_${locale}_${width}`.replace('-', '_');
          const { page, context } = await member(username, locale, width);
          const campaign = await ownCampaign(username);
          const shot = (name: string) =>
            page.screenshot({ path: path.join(dir, `${locale}-${name}-${width}.png`), fullPage: true });
          for (const screen of SIGNED_IN_SCREENS) {
            await visitScreen(page, screen);
            await shot(screen === '/' ? 'discover' : screen.slice(1));
          }
          await ownerViews(page, locale, campaign, async (name) => void (await shot(name)));
          await context.close();
        }
    },
  );
});

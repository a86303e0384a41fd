import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { credit } from '../../src/ledger/ledger.ts';
import { createCampaign } from '../../src/test/factories.ts';
import { startE2E, type E2E } from './support.ts';

// axe-core on every screen: signed out, a brand-new (empty) account, an account with data, and with
// dialogs and the phone menu open. Any serious or critical violation fails the test.

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** A context whose pages accept the injected axe script (our CSP allows only same-origin scripts). */
async function newAxePage(width: number): Promise<{ page: Page; context: BrowserContext }> {
  const context = await e2e.browser.newContext({
    viewport: { width, height: width > 600 ? 900 : 844 },
    baseURL: e2e.app.url,
    bypassCSP: true,
    reducedMotion: 'reduce', // dialogs open without waiting for animations
  });
  return { page: await context.newPage(), context };
}

async function seriousViolations(page: Page, label: string): Promise<string[]> {
  await page.addScriptTag({ path: AXE_SOURCE });
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${label}: [${v.impact}] ${v.id} (${v.help}) at ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

async function visit(page: Page, path: string, ready: () => Promise<unknown>): Promise<void> {
  await page.goto(path);
  await ready();
  await page.waitForLoadState('networkidle');
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor();

const SIGNED_IN_SCREENS = [
  '/',
  '/featured',
  '/socials',
  '/daily',
  '/buy-coins',
  '/checkout',
  '/dashboard',
  '/submit',
  '/campaigns',
  '/history',
  '/account',
  '/no-such-page',
];

describe('accessibility (axe-core, serious and critical)', () => {
  it('signed-out screens: login, session ended, failed sign-in, terms, privacy', async () => {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      const { page, context } = await newAxePage(width);
      for (const path of ['/', '/?login=failed', '/terms', '/privacy']) {
        await visit(page, path, () => h1(page));
        found.push(...(await seriousViolations(page, `${path} @${width}`)));
      }
      await page.evaluate("sessionStorage.setItem('coinsync:session-ended', '1')");
      await visit(page, '/', () => page.getByText('Your session has ended — sign in again').waitFor());
      found.push(...(await seriousViolations(page, `session ended @${width}`)));
      await context.close();
    }
    expect(found).toEqual([]);
  });

  it('every screen of a brand-new, empty account', { timeout: 120_000 }, async () => {
    const found: string[] = [];
    const { page, context } = await newAxePage(1280);
    await e2e.signIn(page, 'axe_newcomer');
    for (const path of SIGNED_IN_SCREENS) {
      await visit(page, path, () => (path === '/checkout' ? page.waitForTimeout(500) : h1(page)));
      found.push(...(await seriousViolations(page, `${path} (empty)`)));
    }
    await context.close();
    expect(found).toEqual([]);
  });

  it(
    'every screen of an account with data, at desktop and phone width, with dialogs and the menu open',
    { timeout: 240_000 },
    async () => {
      const found: string[] = [];
      for (const width of [1280, 390]) {
        const { page, context } = await newAxePage(width);
        const username = `axe_owner_${width}`;
        await e2e.signIn(page, username);
        const db = e2e.app.server.ctx.db;
        const user = db.select().from(users).where(eq(users.discordUsername, username)).get()!;
        credit(db.$client, {
          userId: user.id,
          cents: 50_000,
          type: 'purchase',
          description: 'Starter coins',
          now: e2e.app.clock.now(),
        });
        createCampaign(db, { ownerId: user.id, name: `Axe Arena ${width}` });
        createCampaign(db, { ownerId: user.id, name: `Axe Featured ${width}`, kind: 'featured' });
        for (const path of SIGNED_IN_SCREENS) {
          await visit(page, path, () => (path === '/checkout' ? page.waitForTimeout(500) : h1(page)));
          found.push(...(await seriousViolations(page, `${path} (data) @${width}`)));
        }

        await visit(page, '/dashboard', () => h1(page));
        await page.getByRole('button', { name: `Promote Axe Arena ${width} (100 coins)` }).click();
        await page.getByRole('alertdialog').waitFor();
        found.push(...(await seriousViolations(page, `promote dialog @${width}`)));
        await page.keyboard.press('Escape');

        await visit(page, '/campaigns', () => h1(page));
        await page
          .getByRole('button', { name: /Cancel/ })
          .first()
          .click();
        await page.getByRole('alertdialog').waitFor();
        found.push(...(await seriousViolations(page, `cancel dialog @${width}`)));
        await page.keyboard.press('Escape');

        await visit(page, '/account', () => h1(page));
        await page.getByRole('button', { name: 'Delete my account' }).click();
        await page.getByRole('alertdialog').waitFor();
        found.push(...(await seriousViolations(page, `delete dialog @${width}`)));
        await page.keyboard.press('Escape');

        if (width < 600) {
          await page.getByRole('button', { name: 'More' }).click();
          await page.getByRole('dialog').waitFor();
          found.push(...(await seriousViolations(page, `phone menu @${width}`)));
          await page.keyboard.press('Escape');
        }
        await context.close();
      }
      expect(found).toEqual([]);
    },
  );
});

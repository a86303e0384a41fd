import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.ts';
import { credit } from '../../src/ledger/ledger.ts';
import { createCampaign } from '../../src/test/factories.ts';
import { h1, newAxePage, seriousViolations, visit, visitScreen } from './a11y-support.ts';
import { SIGNED_IN_SCREENS } from './screens.ts';
import { startE2E, type E2E } from './support.ts';

// axe-core on every screen of an account with data, at desktop and phone width, with the dialogs and the
// phone menu open (signed out and a brand-new account: a11y.test.ts). Any serious or critical violation
// fails the test.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

/** A signed-in owner with coins, a regular and a featured campaign, on a page of the given width. */
async function ownerWithData(width: number, part: string) {
  const { page, context } = await newAxePage(e2e, width);
  const username = `axe_owner_${width}_${part}`;
  await e2e.signIn(page, username, { open: false });
  const db = e2e.app.server.ctx.db;
  const user = db.select().from(users).where(eq(users.discordUsername, username)).get()!;
  await credit(e2e.app.server.ctx.store, {
    userId: user.id,
    cents: 50_000,
    type: 'purchase',
    description: 'Starter coins',
    now: e2e.app.clock.now(),
  });
  createCampaign(db, { ownerId: user.id, name: `Axe Arena ${width}` });
  createCampaign(db, { ownerId: user.id, name: `Axe Featured ${width}`, kind: 'featured' });
  return { page, context };
}

// Each width in three tests (two halves of the screens, then the dialogs and the menu) on accounts of their
// own: one test of all took ~25 s on a quiet machine and over its 120 s hang guard at load ~20 in a
// clean-clone run.
describe('accessibility (axe-core, serious and critical)', () => {
  // The screens in two halves per width, each on an account of its own.
  const half = Math.ceil(SIGNED_IN_SCREENS.length / 2);
  const halves = [SIGNED_IN_SCREENS.slice(0, half), SIGNED_IN_SCREENS.slice(half)];
  it.for([1280, 390].flatMap((width) => halves.map((screens, i) => [width, i, screens] as const)))(
    'every screen of an account with data at width %i (half %i: %j)',
    { timeout: 120_000 },
    async ([width, i, screens]) => {
      const found: string[] = [];
      const { page, context } = await ownerWithData(width, `screens${i}`);
      for (const path of screens) {
        await visitScreen(page, path);
        found.push(...(await seriousViolations(page, `${path} (data) @${width}`)));
      }
      await context.close();
      expect(found).toEqual([]);
    },
  );

  it.for([1280, 390])(
    'the dialogs and the phone menu of an account with data at width %i',
    { timeout: 120_000 },
    async (width) => {
      const found: string[] = [];
      const { page, context } = await ownerWithData(width, 'dialogs');
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
      expect(found).toEqual([]);
    },
  );
});

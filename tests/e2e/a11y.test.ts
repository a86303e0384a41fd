import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { h1, newAxePage, seriousViolations, visit, visitScreen } from './a11y-support.ts';
import { SIGNED_IN_SCREENS, SIGNED_OUT_SCREENS } from './screens.ts';
import { startE2E, type E2E } from './support.ts';

// axe-core on every screen signed out and of a brand-new, empty account (the account with data, dialogs
// and the phone menu: a11y-data.test.ts). Any serious or critical violation fails the test.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('accessibility (axe-core, serious and critical)', () => {
  it('signed-out screens: login, session ended, failed sign-in, terms, privacy', async () => {
    const found: string[] = [];
    for (const width of [1280, 390]) {
      const { page, context } = await newAxePage(e2e, width);
      for (const path of [...SIGNED_OUT_SCREENS, '/?login=failed']) {
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
    const { page, context } = await newAxePage(e2e, 1280);
    await e2e.signIn(page, 'axe_newcomer', { open: false });
    for (const path of SIGNED_IN_SCREENS) {
      await visitScreen(page, path);
      found.push(...(await seriousViolations(page, `${path} (empty)`)));
    }
    await context.close();
    expect(found).toEqual([]);
  });
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '../../src/shared/i18n/index.ts';
import { overflowing } from './overflow.ts';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';

// The pages everyone may read — the login page, Terms and Privacy — in the visitor's language
// (decision 061): rendered by the server in it (the HTML already speaks it), hydrated without a
// mismatch, and fitting a 390 px phone in every language. LEGAL_SHOTS=dir saves screenshots.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('Terms and Privacy in the reader’s language', () => {
  it('a German browser gets German Terms from the server, with the date in German', async () => {
    // A render that has not come back in RENDER_WAIT_MS gets the static shell, and the late render serves
    // the next load (decision 047): at load ~20 the first render of the file's fresh worker took longer,
    // so the server's HTML is asked for again until it is the rendered page.
    let html = '';
    await expect
      .poll(
        async () => {
          html = await (
            await fetch(`${e2e.app.url}/terms`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })
          ).text();
          return html;
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toContain('<title>Nutzungsbedingungen | CoinSync</title>');
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('19. Oktober 2025');

    const { page, errors } = await e2e.newPage({ width: 390, height: 844, locale: 'de-DE' });
    await page.goto('/terms');
    await waitUntilInteractive(page);
    await page.getByRole('heading', { level: 1, name: 'Nutzungsbedingungen' }).waitFor();
    await page.getByText(/mindestens 13 Jahre alt/).waitFor();
    // Numbers from the rules, in German digits.
    await page.getByText(/\+1,00 Coins jede Stunde/).waitFor();
    await page.getByRole('link', { name: 'Datenschutzerklärung' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Datenschutzerklärung' }).waitFor();
    await page.getByText(/innerhalb von 72 Stunden/).waitFor();
    await page.getByRole('link', { name: /Zurück zur Startseite/ }).click();
    await page.getByRole('button', { name: 'Weiter mit Discord' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('a signed-in member reads them in the app’s language', async () => {
    const user = e2e.app.sim.state.createUser({ username: 'legal_tr' });
    e2e.app.sim.state.setUserLocale(user.id, 'tr');
    const { page, errors, context } = await e2e.newPage();
    await e2e.signIn(page, 'legal_tr', { open: false });
    await page.goto('/privacy');
    await page.getByRole('heading', { level: 1, name: 'Gizlilik Politikası' }).waitFor();
    await page
      .getByText(/30 gün içinde/)
      .first()
      .waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the login page, Terms and Privacy fit a 390 px phone in every language', async () => {
    const found: string[] = [];
    for (const locale of SUPPORTED_LOCALES) {
      const { page, context, errors } = await e2e.newPage({ width: 390, height: 844, locale });
      for (const screen of ['/', '/terms', '/privacy']) {
        await page.goto(screen);
        if (screen !== '/') await waitUntilInteractive(page);
        await page.locator('main').first().waitFor();
        found.push(...(await overflowing(page)).map((o) => `${locale} ${screen}: ${o}`));
      }
      expect(errors, locale).toEqual([]);
      await context.close();
    }
    expect(found).toEqual([]);
  });

  it.runIf(process.env.LEGAL_SHOTS)(
    'screenshots in de and tr at 390 and 1280 px',
    { timeout: 300_000 },
    async () => {
      const dir = process.env.LEGAL_SHOTS!;
      mkdirSync(dir, { recursive: true });
      for (const locale of ['de', 'tr'])
        for (const width of [390, 1280]) {
          const { page, context } = await e2e.newPage({ width, height: 844, locale });
          for (const screen of ['/', '/terms', '/privacy']) {
            await page.goto(screen);
            if (screen !== '/') await waitUntilInteractive(page);
            const name = screen === '/' ? 'login' : screen.slice(1);
            await page.screenshot({ path: path.join(dir, `${locale}-${name}-${width}.png`), fullPage: true });
          }
          await context.close();
        }
    },
  );
});

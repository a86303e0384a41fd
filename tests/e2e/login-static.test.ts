import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, type E2E } from './support.ts';

// Signed out, the server sends the prerendered login page (dist/web/login.html, decision 026): it must
// work with its own small script alone, without any of the signed-in app's chunks.
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

describe('the static login page', () => {
  it('paints and signs in without the app bundle', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844 });
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'CoinSync' }).waitFor();
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => !/\/assets\/(login-static|session-ended)-[^/]+\.js$/.test(s))).toEqual([]);
    // No notice on a plain visit.
    expect(await page.getByText('Your session has ended — sign in again').isVisible()).toBe(false);
    expect(await page.getByText('Your Discord sign-in did not complete').isVisible()).toBe(false);

    await e2e.signIn(page, 'static_login_user');
    await page.getByRole('heading', { level: 1, name: 'Discover Servers' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('shows the notice that applies: a failed sign-in, an ended session (cleared by signing in)', async () => {
    const { page } = await e2e.newPage();
    await page.goto('/?login=failed');
    await page.getByText('Your Discord sign-in did not complete. Please try again.').waitFor();
    expect(await page.getByText('Your session has ended — sign in again').isVisible()).toBe(false);

    await page.evaluate("sessionStorage.setItem('coinsync:session-ended', '1')");
    await page.goto('/');
    await page.getByText('Your session has ended — sign in again').waitFor();
    await page.getByRole('button', { name: 'Continue with Discord' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
    expect(await page.evaluate<string | null>("sessionStorage.getItem('coinsync:session-ended')")).toBeNull();
  });
});

describe('the static login page in the visitor’s language (decision 061)', () => {
  it('is German for a German browser: its texts, <html lang> and title, still without the app bundle', async () => {
    const { page, errors } = await e2e.newPage({ width: 390, height: 844, locale: 'de-DE' });
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(new URL(req.url()).pathname);
    });
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'CoinSync' }).waitFor();
    await page.getByRole('heading', { name: 'Jetzt loslegen' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('de');
    expect(await page.title()).toBe('CoinSync - Lass deine Discord-Community wachsen');
    expect(await page.getByRole('link', { name: 'Nutzungsbedingungen' }).count()).toBeGreaterThan(0);
    expect(scripts.filter((s) => !/\/assets\/(login-static|session-ended)-[^/]+\.js$/.test(s))).toEqual([]);

    // The notices are German too, and the button still signs in.
    await page.goto('/?login=failed');
    await page
      .getByText('Deine Discord-Anmeldung wurde nicht abgeschlossen. Bitte versuche es erneut.')
      .waitFor();
    await page.getByRole('button', { name: 'Weiter mit Discord' }).click();
    await page.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
    expect(errors).toEqual([]);
  });

  it('picks the best of our six for the browser’s languages, English for any other', async () => {
    const cases: [string, string, string][] = [
      ['tr-TR', 'tr', 'Discord ile devam et'],
      ['pt-PT', 'pt-BR', 'Continuar com o Discord'],
      ['es-MX', 'es', 'Continuar con Discord'],
      ['fr-CA', 'fr', 'Continuer avec Discord'],
      ['ja-JP', 'en', 'Continue with Discord'],
    ];
    for (const [browserLocale, lang, button] of cases) {
      const { page, context } = await e2e.newPage({ locale: browserLocale });
      await page.goto('/');
      await page.getByRole('button', { name: button }).waitFor();
      expect(await page.evaluate<string>('document.documentElement.lang'), browserLocale).toBe(lang);
      await context.close();
    }
  });

  it('keeps the member’s language after signing out, whatever the browser says', async () => {
    const { page, context, errors } = await e2e.newPage({ locale: 'en-US' });
    const user = e2e.app.sim.state.createUser({ username: 'static_login_tr' });
    e2e.app.sim.state.setUserLocale(user.id, 'tr');
    await e2e.signIn(page, 'static_login_tr');
    await page.getByRole('button', { name: /Çıkış/ }).first().click();
    await page.getByRole('button', { name: 'Discord ile devam et' }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('tr');
    expect(errors).toEqual([]);
    await context.close();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2E, waitUntilInteractive, type E2E } from './support.ts';

// The Account page's Reminders section (issue 32 item 2, decision 055): off by default; the first switch
// sends the browser's time zone and gets quiet hours 22:00–08:00; quiet hours are saved.

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(() => e2e.close());

const SHOTS = process.env.SCREENSHOT_DIR;

describe('reminders on the Account page', () => {
  it('switches a reminder on in the browser’s time zone and saves quiet hours', async () => {
    // A browser in São Paulo: its own context, with that time zone.
    const errors: string[] = [];
    const browserContext = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      viewport: { width: 1280, height: 900 },
      timezoneId: 'America/Sao_Paulo',
    });
    const saoPaulo = await browserContext.newPage();
    saoPaulo.on('pageerror', (err) => errors.push(err.message));
    saoPaulo.on('console', (m) => {
      // As support.ts: only our app's pages count (not the simulator's sign-in pages).
      const where = m.location().url || saoPaulo.url();
      if (where.startsWith(e2e.app.url) && m.type() === 'error') errors.push(`${m.text()} @ ${where}`);
    });
    await e2e.signIn(saoPaulo, 'remind_web', { open: false });
    await saoPaulo.goto('/account');
    await waitUntilInteractive(saoPaulo);
    const daily = saoPaulo.getByRole('checkbox', { name: 'Daily reward ready' });
    await daily.waitFor({ state: 'attached' });
    expect(await daily.isChecked()).toBe(false);
    await saoPaulo.getByText('Daily reward ready').click();
    await expect.poll(() => daily.isChecked()).toBe(true);
    await expect.poll(() => saoPaulo.locator('#quiet-zone').inputValue()).toBe('America/Sao_Paulo');
    expect(await saoPaulo.locator('#quiet-start').inputValue()).toBe('22:00');
    await saoPaulo.locator('#quiet-start').fill('23:30');
    await saoPaulo.getByRole('button', { name: 'Save quiet hours' }).click();
    await saoPaulo.getByText('Your quiet hours are set.').waitFor();
    const settings = (await (await saoPaulo.request.get('/api/account/reminders')).json()) as {
      kinds: { daily: boolean };
      timeZone: string;
      quietHours: { start: string };
    };
    expect(settings).toMatchObject({
      kinds: { daily: true },
      timeZone: 'America/Sao_Paulo',
      quietHours: { start: '23:30', end: '08:00' },
    });
    if (SHOTS) {
      const section = saoPaulo.locator('section', { hasText: 'Quiet hours' });
      await section.screenshot({ path: `${SHOTS}/reminders-1280.png` });
      await saoPaulo.setViewportSize({ width: 390, height: 844 });
      await section.screenshot({ path: `${SHOTS}/reminders-390.png` });
    }
    expect(errors).toEqual([]);
    await browserContext.close();
  });
});

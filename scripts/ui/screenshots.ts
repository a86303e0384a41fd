// Full-page screenshots of every screen at desktop (1280) and phone (390) width, signed out and signed in.
// Usage: start the app (demo mode) on a port, then
//   node --import tsx scripts/ui/screenshots.ts http://127.0.0.1:5106 out-dir [username] [locale]
// locale: the browser's language (e.g. es-ES, pt-BR, de-DE), which the app follows until a member picks one.
// The base URL's host must be PUBLIC_URL's (demo: http://localhost:5000): the OAuth2 callback returns
// there, and a session cookie set on 127.0.0.1 is not sent to localhost (sign-in fails on its state check).
import { chromium, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/chromium.ts';
import { SIGNED_IN_SCREENS, SIGNED_OUT_SCREENS } from '../../tests/e2e/screens.ts';

const [base = 'http://127.0.0.1:5000', outDir = 'screenshots', username = 'alex', locale = 'en-US'] =
  process.argv.slice(2);
const WIDTHS = [1280, 390];

function fileName(route: string, prefix: string, width: number): string {
  const name = route === '/' ? 'home' : route.slice(1).replace(/\//g, '_');
  return path.join(outDir, `${prefix}-${name}-${width}.png`);
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: /Discord/ }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
  const authorize = new URL(page.url());
  authorize.searchParams.set('login_hint', username);
  await page.goto(authorize.toString());
  await page.waitForURL(`${base}/`);
}

async function shoot(page: Page, route: string, file: string): Promise<void> {
  await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(600);
  await page.screenshot({ path: file, fullPage: true });
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: width > 500 ? 800 : 844 },
      deviceScaleFactor: 1,
      locale,
    });
    const page = await context.newPage();
    for (const route of SIGNED_OUT_SCREENS) await shoot(page, route, fileName(route, 'out', width));
    await signIn(page);
    // A member's language is their pick, else their Discord account's (the demo's are en-US): pick the
    // browser's, as the Account page's switcher would.
    const picked = locale.startsWith('pt') ? 'pt-BR' : locale.slice(0, 2);
    if (picked !== 'en')
      await page.evaluate(async (value) => {
        const res = await fetch('/api/account/locale', {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ locale: value }),
        });
        if (!res.ok) throw new Error(`PUT /api/account/locale: ${res.status}`);
      }, picked);
    for (const route of SIGNED_IN_SCREENS) await shoot(page, route, fileName(route, 'in', width));
    await context.close();
  }
} finally {
  await browser.close();
}
console.log(`screenshots in ${outDir}`);

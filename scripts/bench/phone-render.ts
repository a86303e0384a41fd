import { chromium } from 'playwright-core';

// Discover on a phone: headless Chromium at 390 × 844 with a 4× slower CPU (CDP throttling), signed
// in with a bench session. Measures from navigation start until the first server card is on screen,
// the cards rendered, and the page's cumulative layout shift (PerformanceObserver, layout-shift).

export interface PhoneRender {
  firstCardMs: number;
  cards: number;
  cls: number;
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function measurePhoneRender(baseUrl: string, cookie: string, runs = 3): Promise<PhoneRender> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const results: PhoneRender[] = [];
    const [name, value] = cookie.split(';')[0]!.split('=') as [string, string];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      // As behind the reverse proxy production trusts. Production's __Host- session cookie is Secure,
      // which a browser will not store for plain-http loopback, so the bench sends it as a header.
      await page.setExtraHTTPHeaders({ 'x-forwarded-proto': 'https', cookie: `${name}=${value}` });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      // Plain script text: it runs in the page, not in Node.
      await page.addInitScript(`
        window.__cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      `);
      await page.goto(`${baseUrl}/`, { waitUntil: 'commit' });
      await page.getByRole('article').first().waitFor({ timeout: 30_000 });
      const firstCardMs = await page.evaluate<number>('performance.now()');
      await page.waitForTimeout(1500);
      const cards = await page.getByRole('article').count();
      const cls = await page.evaluate<number>('window.__cls');
      results.push({ firstCardMs, cards, cls });
      await context.close();
    }
    results.sort((a, b) => a.firstCardMs - b.firstCardMs);
    return results[Math.floor(results.length / 2)]!;
  } finally {
    await browser.close();
  }
}

// Lighthouse (mobile preset: Moto G-class screen, 4x CPU slowdown, slow 4G) on the login, Discover and
// Dashboard pages, 3 runs each, median score per category. Not a test: scores vary with the machine.
// Usage: npm run build && npm run lighthouse [-- http://localhost:5000]
// Env: LIGHTHOUSE_PORT, LIGHTHOUSE_RUNS (default 3), LIGHTHOUSE_PAGES=Login,Discover, LIGHTHOUSE_OUT=<dir>.
// Without a URL it starts the app in demo mode on LIGHTHOUSE_PORT (default 5199) with a throwaway database.
// Besides the scores it prints the audits that cost points and the JavaScript each page downloads.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../tests/e2e/chromium.ts';
import { startDemoApp } from './ui/start-demo-app.ts';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless=new', ...CHROMIUM_ARGS];
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// LIGHTHOUSE_OUT=<dir> keeps every run's full report (<page>-<run>.json) for a closer look at the audits.
const OUT_DIR = process.env.LIGHTHOUSE_OUT;
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const startApp = () => startDemoApp(Number(process.env.LIGHTHOUSE_PORT ?? 5199), 30);

/** Signs a demo user in through the simulator and returns the session cookie header. */
async function signIn(base: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS.slice(1) });
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  await page.waitForURL((u) => u.pathname.endsWith('/oauth2/authorize'));
  const authorize = new URL(page.url());
  authorize.searchParams.set('login_hint', 'alex');
  await page.goto(authorize.toString());
  await page.waitForURL(`${base}/`);
  const cookies = await page.context().cookies(base);
  await browser.close();
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Kilobytes of JavaScript transferred (gzip, as sent), from the network-requests audit. */
function scriptKb(details: unknown): number {
  const items =
    (details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  return (
    items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0) / 1000
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const argUrl = process.argv[2];
const app = argUrl ? null : await startApp();
const base = argUrl ?? app!.url;
try {
  const cookie = await signIn(base);
  const pages = [
    { name: 'Login', url: `${base}/`, cookie: null },
    { name: 'Discover', url: `${base}/`, cookie },
    { name: 'Dashboard', url: `${base}/dashboard`, cookie },
  ];
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  const rows: string[] = [];
  try {
    for (const p of pages.filter((x) => !ONLY || ONLY.includes(x.name))) {
      const scores: Record<string, number[]> = {};
      const cls: number[] = [];
      const jsKb: number[] = [];
      const flagged = new Set<string>();
      for (let run = 0; run < RUNS; run += 1) {
        const result = await lighthouse(p.url, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          extraHeaders: p.cookie ? { Cookie: p.cookie } : {},
          disableStorageReset: false,
        });
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`no result for ${p.name}`);
        if (OUT_DIR) {
          mkdirSync(OUT_DIR, { recursive: true });
          writeFileSync(path.join(OUT_DIR, `${p.name.toLowerCase()}-${run}.json`), JSON.stringify(lhr));
        }
        for (const c of CATEGORIES)
          (scores[c] ??= []).push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
        cls.push(Number(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0));
        jsKb.push(scriptKb(lhr.audits['network-requests']?.details));
        for (const audit of Object.values(lhr.audits)) {
          if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
            flagged.add(audit.id);
        }
      }
      const line = `| ${p.name} | ${CATEGORIES.map((c) => median(scores[c] ?? [])).join(' | ')} | ${median(cls).toFixed(3)} | ${median(jsKb).toFixed(1)} |`;
      console.log(
        line,
        '  runs:',
        JSON.stringify(scores),
        ' failed audits:',
        [...flagged].join(', ') || 'none',
      );
      rows.push(line);
    }
  } finally {
    chrome.kill();
  }
  console.log(
    '\n| page | performance | accessibility | best practices | SEO | CLS | JS kB (gzip, transferred) |\n|---|---|---|---|---|---|---|',
  );
  console.log(rows.join('\n'));
} finally {
  app?.child.kill();
}

// Time to the main action on every signed-in page, on a phone: how long after the navigation starts the
// thing a member comes for is on screen (the claim button on Rewards, the first task on Socials, the first
// row of a list, Join on Discover), and when the page answers a tap (hydrated: <html data-interactive>).
// Issue 28 item 4's goal: on screen within 1 s on every signed-in page.
//
// Conditions: a 390 x 844 phone (device scale 3, touch), 4x CPU slowdown and Lighthouse's "Slow 4G"
// (DevTools throttling: 562.5 ms request latency, 1,474.56 kbit/s down, 675 kbit/s up; Lantern's
// mobileSlow4G, node_modules/lighthouse/core/lib/lantern/simulation/constants.js), applied through the
// Chrome DevTools Protocol in Debian's Chromium. "cold" is a first visit (empty cache, new connection);
// "warm" the same page loaded again (scripts and fonts cached), as a daily visit is.
//
// Usage: npm run build && npm run timing:main-action [-- http://localhost:5000]
// Env: MAIN_ACTION_PORT (default 5198), MAIN_ACTION_RUNS (default 3), MAIN_ACTION_PAGES=/daily,/socials.
// Without a URL it starts the app in demo mode with a throwaway database (as scripts/lighthouse.ts does)
// and signs in as the demo user alex. Not a test: the figures depend on the machine (docs/performance.md).
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tests/e2e/chromium.ts';
import { startDemoApp } from './start-demo-app.ts';

const RUNS = Number(process.env.MAIN_ACTION_RUNS ?? 3);
const ONLY = process.env.MAIN_ACTION_PAGES?.split(',');
const GOAL_MS = 1000;

/** Lighthouse's mobile Slow 4G as DevTools applies it (Lantern's mobileSlow4G). */
const SLOW_4G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1474.56 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

/** Every signed-in page and what its main action is (CSS selectors; the first visible match counts). */
const PAGES: { path: string; name: string; action: string; selector: string }[] = [
  { path: '/', name: 'Discover', action: 'first Join', selector: 'button[aria-label^="Join "]' },
  { path: '/featured', name: 'Featured', action: 'Promote link', selector: 'main a[href^="/submit"]' },
  {
    path: '/socials',
    name: 'Socials',
    action: 'first task',
    selector: '[data-testid="youtube-card"] button, [data-testid^="social-task-"] button',
  },
  {
    path: '/daily',
    name: 'Rewards',
    action: 'claim button',
    selector: '[data-testid^="reward-card-"] button',
  },
  { path: '/buy-coins', name: 'Buy Coins', action: 'first pack', selector: '[data-testid^="pack-"] button' },
  {
    path: '/campaigns',
    name: 'My Campaigns',
    action: 'first campaign',
    selector: '[data-testid="campaign-card"]',
  },
  {
    path: '/dashboard',
    name: 'Dashboard',
    action: 'first server row',
    selector: '[data-testid="my-server"]',
  },
  { path: '/submit', name: 'Submit', action: 'first field', selector: 'main form input' },
  { path: '/joins', name: 'My Joins', action: 'first join', selector: 'main article' },
  { path: '/history', name: 'History', action: 'first row', selector: '[data-testid="transaction"]' },
  { path: '/account', name: 'Account', action: 'page heading', selector: 'main h1' },
];

/**
 * Runs in the page from its first byte (plain script text: it runs in the page, not in Node): every animation frame (rendering happens right after), notes when
 * the main action is first laid out (painted in that frame; on a phone it may sit below the fold), and when the app marks the page interactive.
 */
const probe = (selector: string) => `(() => {
  const selector = ${JSON.stringify(selector)};
  const check = () => {
    if (window.__mainAction === undefined) {
      for (const el of document.querySelectorAll(selector)) {
        const box = el.getBoundingClientRect();
        if (box.width > 0 && box.height > 0) {
          window.__mainAction = performance.now();
          break;
        }
      }
    }
    if (window.__interactive === undefined && document.documentElement.hasAttribute('data-interactive'))
      window.__interactive = performance.now();
    if (window.__mainAction === undefined || window.__interactive === undefined) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

const startApp = () => startDemoApp(Number(process.env.MAIN_ACTION_PORT ?? 5198), 60);

function phoneContext(browser: Browser, base: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
}

/** Signs the demo user in (unthrottled) and gives the member a join and a reward so every list has a row. */
async function signIn(browser: Browser, base: string) {
  const context = await phoneContext(browser, base);
  const page = await context.newPage();
  await page.goto('/');
  await page.getByRole('button', { name: 'Continue with Discord' }).click();
  await page.waitForURL((u) => u.pathname.endsWith('/oauth2/authorize'));
  const authorize = new URL(page.url());
  authorize.searchParams.set('login_hint', process.env.MAIN_ACTION_USER ?? 'alex');
  await page.goto(authorize.toString());
  await page.waitForURL(`${base}/`);
  const headers = { origin: base };
  // A no-bot join (waiting for its claim) for My Joins; a claimed daily reward for History.
  const servers = (await (await page.request.get('/api/servers')).json()) as { id: string; kind: string }[];
  for (const server of servers.filter((s) => s.kind === 'nobot')) {
    if ((await page.request.post(`/api/servers/${server.id}/join`, { headers })).ok()) break;
  }
  await page.request.post('/api/hourly/claim', { headers, data: { type: 'daily' } });
  const state = await context.storageState();
  await context.close();
  return state;
}

interface Sample {
  /** The HTML's first byte (navigation timing's responseStart): the network and the server's part. */
  firstByte: number | null;
  action: number | null;
  interactive: number | null;
}

async function measure(
  browser: Browser,
  base: string,
  state: Awaited<ReturnType<typeof signIn>>,
  target: (typeof PAGES)[number],
): Promise<{ cold: Sample; warm: Sample }> {
  const context = await browser.newContext({
    baseURL: base,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    storageState: state,
  });
  try {
    const page = await context.newPage();
    await page.addInitScript(probe(target.selector));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const once = async (): Promise<Sample> => {
      await page.goto(target.path, { waitUntil: 'load', timeout: 60_000 });
      // Polled from here: the page's CSP forbids the string evaluation page.waitForFunction relies on.
      const read = () =>
        page.evaluate<Sample>(
          '({ firstByte: performance.timing.responseStart - performance.timing.navigationStart, action: window.__mainAction ?? null, interactive: window.__interactive ?? null })',
        );
      for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
        const sample = await read();
        if (sample.action !== null && sample.interactive !== null) return sample;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return read();
    };
    const cold = await once();
    const warm = await once();
    return { cold, warm };
  } finally {
    await context.close();
  }
}

function median(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (known.length < values.length) return null;
  return known[Math.floor(known.length / 2)] ?? null;
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(2)} s`);

const argUrl = process.argv[2];
const app = argUrl ? null : await startApp();
const base = argUrl ?? app!.url;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  const state = await signIn(browser, base);
  const rows: string[] = [];
  let over = 0;
  for (const target of PAGES.filter((p) => !ONLY || ONLY.includes(p.path))) {
    const samples = [];
    for (let run = 0; run < RUNS; run += 1) samples.push(await measure(browser, base, state, target));
    const coldAction = median(samples.map((s) => s.cold.action));
    const warmAction = median(samples.map((s) => s.warm.action));
    const coldFirstByte = median(samples.map((s) => s.cold.firstByte));
    const coldInteractive = median(samples.map((s) => s.cold.interactive));
    const warmInteractive = median(samples.map((s) => s.warm.interactive));
    if (coldAction === null || coldAction > GOAL_MS) over += 1;
    rows.push(
      `| ${target.name} (${target.path}) | ${target.action} | ${seconds(coldFirstByte)} | ${seconds(coldAction)} | ${seconds(warmAction)} | ${seconds(coldInteractive)} | ${seconds(warmInteractive)} |`,
    );
    console.error(`${target.path}: shown ${seconds(coldAction)} cold, ${seconds(warmAction)} warm`);
  }
  console.log(
    `Time to the main action, 390 px phone, 4x CPU, Slow 4G; median of ${RUNS} (${new Date().toISOString()}):\n`,
  );
  console.log(
    '| Page | Main action | HTML first byte, cold | Shown, cold | Shown, warm | Interactive, cold | Interactive, warm |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log(
    `\n${over === 0 ? 'Every page' : `${over} page(s) not`} within ${GOAL_MS / 1000} s (cold, shown).`,
  );
} finally {
  await browser.close();
  app?.child.kill();
}

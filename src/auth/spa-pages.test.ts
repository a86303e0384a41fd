import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppBoot, ApiUser } from '../shared/api-types.ts';
import { grantCoins, insertCampaign, insertJoin, updateCampaign } from '../test/factories.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { readMetric } from '../metrics.ts';
import { bootScript, bootScriptParts, bootText, withDocumentHead } from './spa-pages.ts';
import { encodedJson } from './encoded-json.ts';
import { MAX_QUEUED_RENDERS } from './page-renderer.ts';
import { discoverFor } from '../joins/discover-campaigns.ts';

// The SPA's HTML depends on the session: signed out, the prerendered login page; signed in, index.html
// with this session's own user inlined. The page is per user, so it must never be cached or mixed up.
let app: TestApp;
let rendering: TestApp;
let dir: string;

const INDEX =
  '<!doctype html><html lang="en"><head><meta property="og:url" content="__PUBLIC_ORIGIN__/"><meta\n      name="description"\n      content="The site."\n    /><title>CoinSync - Grow</title></head><div id="root"></div><!--app-boot--><script type="module" src="/assets/index-abc.js"></script>';
const LOGIN =
  '<!doctype html><meta property="og:url" content="__PUBLIC_ORIGIN__/"><div id="root"><button data-sign-in="">Continue with Discord</button></div><script type="module" src="/assets/login-static-abc.js"></script>';

/** The build's login page per locale (scripts/build/pages.ts): login.html is English, login.<locale>.html the rest. */
const LOGINS: Record<string, string> = {
  'login.html': LOGIN.replace('<!doctype html>', '<!doctype html><html lang="en">'),
  'login.de.html': LOGIN.replace('<!doctype html>', '<!doctype html><html lang="de">').replace(
    'Continue with Discord',
    'Weiter mit Discord',
  ),
  'login.tr.html': LOGIN.replace('<!doctype html>', '<!doctype html><html lang="tr">').replace(
    'Continue with Discord',
    'Discord ile devam et',
  ),
  'login.pt-BR.html': LOGIN.replace('<!doctype html>', '<!doctype html><html lang="pt-BR">').replace(
    'Continue with Discord',
    'Continuar com o Discord',
  ),
};

function bootOf(html: string): AppBoot | null {
  const json = /<script type="application\/json" id="app-boot">(.*?)<\/script>/s.exec(html)?.[1];
  return json === undefined ? null : (JSON.parse(json) as AppBoot);
}

async function page(client: TestClient, pathname: string) {
  const res = await client.raw(pathname);
  return { status: res.status, html: await res.text(), headers: res.headers };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'coinsync-spa-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  for (const [file, html] of Object.entries(LOGINS)) writeFileSync(path.join(dir, file), html);
  writeFileSync(
    path.join(dir, 'route-preloads.json'),
    // The route table: a path outside it answers 404 signed in ('/broken' is a route whose rendering fails).
    JSON.stringify({
      '/': ['/assets/discover-page-abc.js'],
      '/terms': ['/assets/terms-page-abc.js'],
      '/dashboard': [],
      '/broken': [],
      '/slow': [],
      '/held': ['/assets/held-page-abc.js'],
      '/held-broken': [],
    }),
  );
  app = await startTestApp({ webDist: dir });
  // A stand-in for the server renderer (web/src/entry-server.tsx, built into dist/ssr): it writes what it
  // was given into the markup, so the tests see which user and data a page was rendered with.
  mkdirSync(path.join(dir, 'ssr'));
  writeFileSync(
    path.join(dir, 'ssr', 'entry-server.js'),
    `import { existsSync } from 'node:fs';
    let renders = 0;
    export async function renderApp(url, boot) {
      if (url.startsWith('/broken')) throw new Error('render failed');
      // A render that lasts until the test lets it end.
      while (url.startsWith('/slow') && !existsSync(${JSON.stringify(path.join(dir, 'release'))}))
        await new Promise((resolve) => setTimeout(resolve, 10));
      while (url.startsWith('/held') && !existsSync(${JSON.stringify(path.join(dir, 'release-held'))}))
        await new Promise((resolve) => setTimeout(resolve, 10));
      if (url.startsWith('/held-broken')) throw new Error('render failed after the start was sent');
      renders += 1;
      const who = boot.user ? boot.user.discordUsername : 'nobody';
      return {
        html: '<main data-url="' + encodeURIComponent(url) + '" data-render="' + renders + '">rendered for ' + who + ' with ' + (boot.queries ?? []).length + ' queries, rendered=' + boot.rendered + '</main>',
        // How many Discover servers the renderer was given (the data itself, as the app holds it).
        head: (Array.isArray(boot.queries?.[0]?.data?.pages?.[0]?.servers)
          ? '<meta name="servers" content="' + boot.queries[0].data.pages[0].servers.length + '">'
          : '') + '<style data-emotion="css abc">.css-abc{color:red}</style>',
        document: url.startsWith('/terms') ? { title: 'Terms & <Conditions> | CoinSync', description: 'Rules "here".' } : {},
      };
    }`,
  );
  rendering = await startTestApp({ webDist: dir, ssrDist: path.join(dir, 'ssr') });
});
afterAll(async () => {
  await app.close();
  await rendering.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('signed out', () => {
  it('gets the prerendered login page on app paths, without the app bundle or any user', async () => {
    for (const pathname of ['/', '/dashboard', '/campaigns', '/no-such-page']) {
      const res = await page(app.anonymous(), pathname);
      expect(res.status, pathname).toBe(200);
      expect(res.html, pathname).toContain('data-sign-in');
      expect(res.html, pathname).not.toContain('index-abc.js');
      expect(res.html, pathname).not.toContain('app-boot');
      expect(res.html, pathname).toContain(`content="${app.url}/"`);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('vary')).toMatch(/Cookie/);
    }
  });

  it('gets the app, with no user, on the pages everyone may read', async () => {
    for (const pathname of ['/terms', '/privacy']) {
      const res = await page(app.anonymous(), pathname);
      expect(res.html, pathname).toContain('index-abc.js');
      const boot = bootOf(res.html);
      expect(boot?.user, pathname).toBeNull();
      expect(boot?.config.productName).toBe('CoinSync');
    }
    expect((await page(app.anonymous(), '/terms')).html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/terms-page-abc.js"></head>',
    );
  });

  it("gets the login page in the browser's language: the best of ours for Accept-Language, English else", async () => {
    const cases: [string | undefined, string, string][] = [
      ['de-DE,de;q=0.9,en;q=0.8', 'de', 'Weiter mit Discord'],
      ['tr', 'tr', 'Discord ile devam et'],
      ['pt-PT,pt;q=0.9', 'pt-BR', 'Continuar com o Discord'],
      ['ja,de;q=0.5', 'de', 'Weiter mit Discord'],
      ['en-US,de;q=0.9', 'en', 'Continue with Discord'],
      ['ja', 'en', 'Continue with Discord'],
      [undefined, 'en', 'Continue with Discord'],
      // A locale the build has no page for (none written for es here) falls back to English.
      ['es-ES', 'en', 'Continue with Discord'],
    ];
    for (const [header, lang, button] of cases) {
      const res = await app
        .anonymous()
        .raw('/dashboard', { headers: header ? { 'accept-language': header } : {} });
      const html = await res.text();
      expect(html, String(header)).toContain(`<html lang="${lang}">`);
      expect(html, String(header)).toContain(button);
      expect(res.headers.get('vary'), String(header)).toMatch(/Accept-Language/);
      expect(res.headers.get('vary'), String(header)).toMatch(/Cookie/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('gets the remembered language before Accept-Language; an unknown cookie value is ignored', async () => {
    const visit = (cookie: string) =>
      fetch(`${app.url}/`, { headers: { cookie, 'accept-language': 'de' } }).then((res) => res.text());
    expect(await visit('coinsync.locale=tr')).toContain('<html lang="tr">');
    expect(await visit('other=1; coinsync.locale=pt-BR')).toContain('<html lang="pt-BR">');
    expect(await visit('coinsync.locale=xx')).toContain('<html lang="de">');
    expect(await visit('coinsync.locale=%E0%A4%A')).toContain('<html lang="de">');
  });

  it("gets Terms and Privacy in the browser's language: the boot data says which, and so does <html lang>", async () => {
    for (const pathname of ['/terms', '/privacy']) {
      const res = await app.anonymous().raw(pathname, { headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
      const html = await res.text();
      expect(bootOf(html)?.locale, pathname).toBe('fr');
      expect(html, pathname).toContain('<html lang="fr">');
      expect(res.headers.get('vary'), pathname).toMatch(/Accept-Language/);
    }
    const english = await page(app.anonymous(), '/terms');
    expect(bootOf(english.html)?.locale).toBe('en');
    expect(english.html).toContain('<html lang="en">');
  });

  it('creates no session for a visit', async () => {
    const res = await app.anonymous().raw('/');
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('signed in', () => {
  it("inlines the session's own user, the same answer as /api/auth/user, in a page nobody caches", async () => {
    const alex = await app.signIn('spa_alex');
    const bob = await app.signIn('spa_bob');
    for (const [client, name] of [
      [alex, 'spa_alex'],
      [bob, 'spa_bob'],
    ] as const) {
      const me = (await client.get<ApiUser>('/api/auth/user')).body;
      for (const pathname of ['/', '/dashboard', '/terms']) {
        const res = await page(client, pathname);
        expect(res.html).toContain('index-abc.js');
        expect(res.html).not.toContain('data-sign-in');
        expect(bootOf(res.html)?.user, `${name} ${pathname}`).toEqual(me);
        expect(res.headers.get('cache-control')).toBe('private, no-cache');
      }
    }
    expect((await page(alex, '/')).html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/discover-page-abc.js">',
    );
    expect((await page(alex, '/dashboard')).html).not.toContain('modulepreload');
    // Issue 28 item 11: a path that is no route answers HTTP 404 (the app then shows its 404 page).
    const missing = await page(alex, '/no/such/page');
    expect(missing.status).toBe(404);
    expect(bootOf(missing.html)?.user?.discordUsername).toBe('spa_alex');
    expect((await page(alex, '/')).status).toBe(200);
    expect((await page(alex, '/terms/')).status).toBe(200);
    expect((await page(alex, '/')).html).not.toContain('spa_bob');
    expect((await page(bob, '/')).html).not.toContain('spa_alex');
  });

  it('is signed out again after logging out: the login page, no user', async () => {
    const carol = await app.signIn('spa_carol');
    expect(bootOf((await page(carol, '/')).html)?.user?.discordUsername).toBe('spa_carol');
    const cookie = carol.cookieHeader;
    expect((await carol.post('/api/auth/logout')).status).toBe(200);
    // The old cookie, replayed: its session is gone.
    const res = await fetch(`${app.url}/`, { headers: { cookie } });
    const html = await res.text();
    expect(html).toContain('data-sign-in');
    expect(html).not.toContain('spa_carol');
  });

  it("remembers the member's language in a cookie: after logging out the login page speaks it", async () => {
    const lena = await app.signIn('spa_lena');
    expect((await lena.request('PUT', '/api/account/locale', { locale: 'de' })).status).toBe(200);
    const signedIn = await page(lena, '/dashboard');
    expect(signedIn.html).toContain('<html lang="de">');
    // Signed in, the page depends on the session alone.
    expect(signedIn.headers.get('vary')).toMatch(/Cookie/);
    expect(signedIn.headers.get('vary')).not.toMatch(/Accept-Language/);
    expect(lena.cookieHeader).toContain('coinsync.locale=de');
    // The page does not set it again while it is right.
    expect(signedIn.headers.get('set-cookie')).toBeNull();
    expect((await lena.post('/api/auth/logout')).status).toBe(200);
    const res = await lena.raw('/', { headers: { 'accept-language': 'tr' } });
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('Weiter mit Discord');
  });

  it('sets the language cookie from a signed-in page when the browser has none or another', async () => {
    const erik = await app.signIn('spa_erik');
    const res = await fetch(`${app.url}/`, {
      headers: { cookie: `${erik.cookieHeader}; coinsync.locale=tr` },
    });
    const set = res.headers.getSetCookie().find((line) => line.startsWith('coinsync.locale='));
    expect(set).toMatch(/^coinsync\.locale=en;/);
    expect(set).toMatch(/; Path=\/;/);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).toMatch(/; SameSite=Lax/);
    expect(Number(/Max-Age=(\d+)/.exec(set ?? '')?.[1])).toBeGreaterThan(300 * 24 * 3600);
  });

  it('does not trust a forged session cookie', async () => {
    const res = await fetch(`${app.url}/dashboard`, { headers: { cookie: 'coinsync.sid=s%3Aforged.sig' } });
    const html = await res.text();
    expect(html).toContain('data-sign-in');
    expect(html).not.toContain('app-boot');
  });
});

describe("the page's first data (decision 031)", () => {
  it("is the API's own answers for this user: Discover's first page and featured list, Dashboard's three", async () => {
    const dana = await app.signIn('spa_dana');
    const erin = await app.signIn('spa_erin');
    const store = app.server.ctx.store;
    await grantCoins(store, dana.user!.id, 50_000);
    await insertCampaign(store, { ownerId: dana.user!.id, name: 'Dana Regular' });
    await insertCampaign(store, { ownerId: erin.user!.id, name: 'Erin Featured', kind: 'featured' });
    for (let i = 0; i < 30; i += 1)
      await insertCampaign(store, { ownerId: erin.user!.id, name: `Erin ${i}` });
    // PostgreSQL: Discover follows commits by LISTEN/NOTIFY, so the page and the API below could read it
    // before and after the last notification. Wait until it shows the last campaign (notifications come
    // in commit order); on SQLite the next read sees every commit and this is one read.
    const lastListed = async () =>
      ((await dana.get<{ name: string }[]>('/api/servers?q=Erin 29')).body[0]?.name ?? '') === 'Erin 29';
    for (const deadline = Date.now() + 10_000; !(await lastListed()) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));

    const discover = bootOf((await page(dana, '/')).html)?.queries ?? [];
    const first = await dana.raw('/api/servers');
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? null;
    expect(next).not.toBeNull();
    expect(discover).toEqual([
      {
        key: ['/api/servers', 'pages', ''],
        data: { pages: [{ servers: await first.json(), next }], pageParams: ['/api/servers'] },
      },
      { key: ['/api/servers', 'featured', ''], data: (await dana.get('/api/servers/featured')).body },
    ]);

    const dashboard = bootOf((await page(dana, '/dashboard')).html)?.queries ?? [];
    expect(dashboard).toEqual([
      { key: ['/api/servers/mine'], data: (await dana.get('/api/servers/mine')).body },
      { key: ['/api/transactions', 'summary'], data: (await dana.get('/api/transactions/summary')).body },
      { key: ['/api/transactions'], data: (await dana.get('/api/transactions')).body },
    ]);
    expect(JSON.stringify(dashboard)).toContain('Dana Regular');
    expect(JSON.stringify(dashboard)).toContain('Test coins');

    // Each session sees only its own: Erin's page has Erin's servers and not Dana's ledger.
    const erinDashboard = JSON.stringify(bootOf((await page(erin, '/dashboard')).html)?.queries);
    expect(erinDashboard).toContain('Erin Featured');
    expect(erinDashboard).not.toContain('Dana Regular');
    expect(erinDashboard).not.toContain('Test coins');
    expect(bootOf((await page(dana, '/submit')).html)?.queries).toEqual([]);
  });

  it("is the API's own answers on the habit pages: Rewards, Socials, My Campaigns, My Joins, History", async () => {
    const fay = await app.signIn('spa_fay');
    const gus = await app.signIn('spa_gus');
    const store = app.server.ctx.store;
    await grantCoins(store, fay.user!.id, 50_000);
    await insertCampaign(store, { ownerId: fay.user!.id, name: 'Fay Campaign' });
    await insertCampaign(store, { ownerId: gus.user!.id, name: 'Gus Campaign' });
    expect((await fay.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);

    const history = await fay.raw('/api/transactions?page=1&pageSize=20');
    const total = Number(history.headers.get('x-total-count'));
    const expected: Record<string, { key: unknown[]; data: unknown }[]> = {
      '/daily': [{ key: ['/api/hourly'], data: (await fay.get('/api/hourly')).body }],
      '/socials': [{ key: ['/api/social'], data: (await fay.get('/api/social')).body }],
      '/campaigns': [
        { key: ['/api/campaigns'], data: (await fay.get('/api/campaigns')).body },
        { key: ['/api/servers/mine'], data: (await fay.get('/api/servers/mine')).body },
      ],
      '/joins': [{ key: ['/api/joins'], data: (await fay.get('/api/joins')).body }],
      '/history': [
        {
          key: ['/api/transactions', 'history', 'all', 1],
          data: { items: await history.json(), total, pageCount: Math.max(1, Math.ceil(total / 20)) },
        },
      ],
    };
    for (const [pathname, queries] of Object.entries(expected))
      expect(bootOf((await page(fay, pathname)).html)?.queries, pathname).toEqual(queries);
    // The claimed reward is waiting (its countdown starts from the inlined status), and the lists are Fay's.
    expect(
      (await fay.get<{ regularHoursRemaining: number }>('/api/hourly')).body.regularHoursRemaining,
    ).toBeGreaterThan(0);
    const fayCampaigns = JSON.stringify(bootOf((await page(fay, '/campaigns')).html)?.queries);
    expect(fayCampaigns).toContain('Fay Campaign');
    expect(fayCampaigns).not.toContain('Gus Campaign');
  });

  it('is not in a signed-out page', async () => {
    expect(bootOf((await page(app.anonymous(), '/terms')).html)?.queries).toBeUndefined();
  });
});

describe('with a server renderer (decision 031)', () => {
  it("puts this session's rendering into the page and tells the app to hydrate it", async () => {
    const frank = await rendering.signIn('spa_frank');
    const gina = await rendering.signIn('spa_gina');
    for (const [client, name] of [
      [frank, 'spa_frank'],
      [gina, 'spa_gina'],
    ] as const) {
      const res = await page(client, '/dashboard?tab=1');
      expect(res.html).toContain(`<div id="root"><main data-url="%2Fdashboard%3Ftab%3D1" data-render="`);
      expect(res.html).toContain(`">rendered for ${name} with 3 queries, rendered=true</main></div>`);
      expect(bootOf(res.html)?.rendered).toBe(true);
      expect(res.html).toContain('<style data-emotion="css abc">.css-abc{color:red}</style></head>');
      expect(bootOf(res.html)?.user?.discordUsername).toBe(name);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(res.headers.get('vary')).toMatch(/Cookie/);
    }
    expect((await page(frank, '/')).html).not.toContain('spa_gina');
    expect((await page(gina, '/')).html).not.toContain('spa_frank');
  });

  it('loads the scripts of a rendered page at low priority: they only hydrate what is already painted', async () => {
    const ivan = await rendering.signIn('spa_ivan');
    const rendered = (await page(ivan, '/')).html;
    expect(rendered).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/discover-page-abc.js">',
    );
    expect(rendered).toContain('<script type="module" fetchpriority="low" src="/assets/index-abc.js">');
    // Without a server rendering the scripts paint the page: normal priority.
    const plain = (await page(await app.signIn('spa_ivan'), '/')).html;
    expect(plain).toContain('<link rel="modulepreload" crossorigin href="/assets/discover-page-abc.js">');
    expect(plain).toContain('<script type="module" src="/assets/index-abc.js">');
    expect(plain).not.toContain('fetchpriority');
  });

  it('renders the public pages for nobody, and signed out on an app path still sends the login page', async () => {
    const terms = await page(rendering.anonymous(), '/terms');
    expect(terms.html).toContain('rendered for nobody with 0 queries');
    const login = await page(rendering.anonymous(), '/dashboard');
    expect(login.html).toContain('data-sign-in');
    expect(login.html).not.toContain('rendered for');
  });

  it('renders a page once per URL and data: the same inputs again come from the page cache (decision 047)', async () => {
    const jack = await rendering.signIn('spa_jack');
    const renderOf = (html: string) => /data-render="(\d+)"/.exec(html)?.[1];
    const cached = () => readMetric('coinsync_page_html_total', { outcome: 'cache' });
    const first = (await page(jack, '/dashboard')).html;
    const hitsBefore = await cached();
    const again = await page(jack, '/dashboard');
    expect(renderOf(again.html)).toBe(renderOf(first));
    expect(again.html).toBe(first);
    expect(await cached()).toBe(hitsBefore + 1);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    // Another URL, or the same page once its data changed (a balance, a campaign), is rendered anew.
    expect(renderOf((await page(jack, '/dashboard?tab=2')).html)).not.toBe(renderOf(first));
    await grantCoins(rendering.server.ctx.store, jack.user!.id, 1_000);
    const changed = (await page(jack, '/dashboard')).html;
    expect(renderOf(changed)).not.toBe(renderOf(first));
    expect(bootOf(changed)?.user?.coins).not.toBe(bootOf(first)?.user?.coins);
    // A client that takes no gzip gets the same page uncompressed.
    const plain = await fetch(`${rendering.url}/dashboard`, {
      headers: { cookie: jack.cookieHeader, 'accept-encoding': 'identity' },
    });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(changed);
  });

  it("keeps Discover's render when only its invite counts change, and inlines the counts of this load (session 14)", async () => {
    const mona = await rendering.signIn('spa_mona');
    const store = rendering.server.ctx.store;
    const renderOf = (html: string) => /data-render="(\d+)"/.exec(html)?.[1];
    const code = 'spa-counts-invite';
    const owner = await rendering.signIn('spa_owner');
    await insertCampaign(store, {
      ownerId: owner.user!.id,
      name: 'Counted Guild',
      kind: 'featured',
      inviteCode: code,
    });
    const listed = async () =>
      ((await mona.get<{ name: string }[]>('/api/servers?q=Counted')).body[0]?.name ?? '') ===
      'Counted Guild';
    for (const deadline = Date.now() + 10_000; !(await listed()) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const discover = discoverFor(store, { cdnUrl: rendering.server.ctx.config.discord.cdnUrl });
    const setCounts = (memberCount: number, onlineCount: number) =>
      discover.list.setStats(code, { memberCount, onlineCount, description: 'Counted', bannerUrl: null });
    const counted = (html: string) =>
      JSON.stringify(bootOf(html)?.queries)
        .match(/"name":"Counted Guild".*?"memberCount":(\d+),"onlineCount":(\d+)/)
        ?.slice(1);
    setCounts(100, 10);
    const first = (await page(mona, '/')).html;
    expect(counted(first)).toEqual(['100', '10']);
    setCounts(250, 25);
    const recounted = await page(mona, '/');
    // The same render (its markup does not show the counts), with this load's data: the API's answers.
    expect(renderOf(recounted.html)).toBe(renderOf(first));
    expect(counted(recounted.html)).toEqual(['250', '25']);
    expect(bootOf(recounted.html)?.rendered).toBe(true);
    expect(bootOf(recounted.html)?.queries).toEqual([
      {
        key: ['/api/servers', 'pages', ''],
        data: {
          pages: [{ servers: (await mona.get('/api/servers')).body, next: null }],
          pageParams: ['/api/servers'],
        },
      },
      { key: ['/api/servers', 'featured', ''], data: (await mona.get('/api/servers/featured')).body },
    ]);
    // Without gzip, the same page.
    const plain = await fetch(`${rendering.url}/`, {
      headers: { cookie: mona.cookieHeader, 'accept-encoding': 'identity' },
    });
    expect(await plain.text()).toBe(recounted.html);
    // Anything else the markup shows (the description here) renders the page anew.
    discover.list.setStats(code, {
      memberCount: 250,
      onlineCount: 25,
      description: 'Other',
      bannerUrl: null,
    });
    const described = (await page(mona, '/')).html;
    expect(renderOf(described)).not.toBe(renderOf(first));
    expect(described).toContain('"description":"Other"');
  });

  it("keeps Discover's render when joins change a campaign's remaining slots, not the Dashboard's (session 15)", async () => {
    const nina = await rendering.signIn('spa_nina');
    const owner = await rendering.signIn('spa_slots_owner');
    const store = rendering.server.ctx.store;
    const renderOf = (html: string) => /data-render="(\d+)"/.exec(html)?.[1];
    const campaign = await insertCampaign(store, {
      ownerId: owner.user!.id,
      name: 'Slotted Guild',
      kind: 'featured',
      membersRemaining: 40,
    });
    const remaining = async () =>
      (await nina.get<{ name: string; membersRemaining: number }[]>('/api/servers/featured?q=Slotted'))
        .body[0]?.membersRemaining;
    const listedWith = async (n: number | undefined) => {
      for (const deadline = Date.now() + 10_000; (await remaining()) !== n && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await remaining()).toBe(n);
    };
    const slotsIn = (html: string) =>
      JSON.stringify(bootOf(html)?.queries)
        .match(/"name":"Slotted Guild","inviteLink":"[^"]*".*?"membersRemaining":(\d+)/g)
        ?.map((m) => /(\d+)$/.exec(m)?.[1]);
    await listedWith(40);
    const first = (await page(nina, '/')).html;
    const dashboard = (await page(owner, '/dashboard')).html;
    expect(slotsIn(first)).toEqual(['40', '40']); // the first page and the Featured list
    // A verified join takes a slot: the same render (the markup shows no remaining slots), this load's data.
    await updateCampaign(store, campaign.id, { membersRemaining: 39 });
    await listedWith(39);
    const joined = (await page(nina, '/')).html;
    expect(renderOf(joined)).toBe(renderOf(first));
    expect(slotsIn(joined)).toEqual(['39', '39']);
    expect(bootOf(joined)?.queries?.[1]?.data).toEqual((await nina.get('/api/servers/featured')).body);
    // The owner's Dashboard shows its campaigns' remaining slots: rendered anew.
    const ownerAfter = (await page(owner, '/dashboard')).html;
    expect(renderOf(ownerAfter)).not.toBe(renderOf(dashboard));
    expect(JSON.stringify(bootOf(ownerAfter)?.queries)).toContain('"membersRemaining":39');
  });

  it("inlines Discover's shared lists as the list's own bytes, each member's own answer, with an ETag per build and data (session 16)", async () => {
    const olga = await rendering.signIn('spa_olga');
    const pete = await rendering.signIn('spa_pete');
    const store = rendering.server.ctx.store;
    // Olga owns a featured campaign (her cards say "Your Server": her own featured bytes), Pete joins another.
    await insertCampaign(store, { ownerId: olga.user!.id, name: 'Olga Featured', kind: 'featured' });
    const joined = await insertCampaign(store, { ownerId: olga.user!.id, name: 'Olga Joinable' });
    const listed = async () =>
      ((await pete.get<{ name: string }[]>('/api/servers?q=Olga Joinable')).body[0]?.name ?? '') ===
      'Olga Joinable';
    for (const deadline = Date.now() + 10_000; !(await listed()) && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const expected = async (client: TestClient) => {
      const first = await client.raw('/api/servers');
      const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1] ?? null;
      return [
        {
          key: ['/api/servers', 'pages', ''],
          data: { pages: [{ servers: await first.json(), next }], pageParams: ['/api/servers'] },
        },
        { key: ['/api/servers', 'featured', ''], data: (await client.get('/api/servers/featured')).body },
      ];
    };
    const mine = (html: string) =>
      JSON.stringify(bootOf(html)?.queries).match(/"name":"Olga Featured".*?"isMine":(true|false)/)?.[1];
    const servedBefore = await page(pete, '/');
    expect(bootOf(servedBefore.html)?.queries).toEqual(await expected(pete));
    expect(JSON.stringify(bootOf(servedBefore.html)?.queries)).toContain('Olga Joinable');
    // The renderer got the data itself, not the bytes' wrapper (its head tells how many servers it saw).
    expect(servedBefore.html).toMatch(/<meta name="servers" content="[1-9]\d*">/);
    const olgaPage = (await page(olga, '/')).html;
    expect(bootOf(olgaPage)?.queries).toEqual(await expected(olga));
    expect(mine(olgaPage)).toBe('true');
    expect(mine(servedBefore.html)).toBe('false');
    expect(olgaPage).not.toContain('spa_pete');

    // The same page again: the same ETag, and a browser holding it gets 304 with no body.
    const again = await page(pete, '/');
    expect(again.html).toBe(servedBefore.html);
    const etag = again.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    expect(etag).toBe(servedBefore.headers.get('etag'));
    const revalidated = await fetch(`${rendering.url}/`, {
      // As a browser revalidates (fetch would add `no-cache` to a conditional request without one).
      headers: { cookie: pete.cookieHeader, 'if-none-match': etag!, 'cache-control': 'max-age=0' },
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    expect(olgaPage).not.toBe(again.html);

    // Pete joins: his Discover leaves the campaign out from his next load on (a page of his own), with
    // another ETag; others still see it, and only Olga's page has her "Your Server".
    await insertJoin(store, {
      userId: pete.user!.id,
      campaignId: joined.id,
      joinedAt: Date.now(),
      verified: true,
      verifiedAt: Date.now(),
      coinsAwarded: true,
    });
    const after = await page(pete, '/');
    expect(bootOf(after.html)?.queries).toEqual(await expected(pete));
    expect(JSON.stringify(bootOf(after.html)?.queries)).not.toContain('Olga Joinable');
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(mine(after.html)).toBe('false');
    const olgaAfter = (await page(olga, '/')).html;
    expect(bootOf(olgaAfter)?.queries).toEqual(await expected(olga));
    expect(mine(olgaAfter)).toBe('true');
    const quinn = (await page(await rendering.signIn('spa_quinn'), '/')).html;
    expect(JSON.stringify(bootOf(quinn)?.queries)).toContain('Olga Joinable');
    expect(mine(quinn)).toBe('false');
    // Without gzip, the same page.
    const plain = await fetch(`${rendering.url}/`, {
      headers: { cookie: pete.cookieHeader, 'accept-encoding': 'identity' },
    });
    expect(await plain.text()).toBe(after.html);
  });

  it("reports the render worker's own heap and CPU time in /metrics, which the process's figures do not tell apart", async () => {
    const lars = await rendering.signIn('spa_lars');
    const rendered = await page(lars, '/dashboard?heap=1');
    expect(bootOf(rendered.html)?.rendered).toBe(true);
    const used = await readMetric('coinsync_page_renderer_heap_size_used_bytes');
    const total = await readMetric('coinsync_page_renderer_heap_size_total_bytes');
    // A worker's isolate with the renderer module loaded holds at least a megabyte; used fits in total.
    expect(used).toBeGreaterThan(1024 * 1024);
    expect(total).toBeGreaterThanOrEqual(used);
    expect(await readMetric('coinsync_page_renderer_external_memory_bytes')).toBeGreaterThan(0);
    // And its thread's CPU time (Linux: /proc/thread-self), at least the isolate's start-up.
    if (process.platform === 'linux')
      expect(await readMetric('coinsync_page_renderer_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('reports the bytes of rendered pages its cache holds, a part of the external memory (decision 049, session 17)', async () => {
    const before = await readMetric('coinsync_page_cache_bytes');
    const nils = await rendering.signIn('spa_nils');
    expect(bootOf((await page(nils, '/dashboard?cache-bytes=1')).html)?.rendered).toBe(true);
    const after = await readMetric('coinsync_page_cache_bytes');
    // The page is kept gzip-compressed: a few hundred bytes at least for this stand-in's markup.
    expect(after - before).toBeGreaterThan(200);
    expect(after).toBeLessThanOrEqual(process.memoryUsage().external);
  });

  it('sends the static shell rather than queueing renders when the renderer is busy', async () => {
    const kate = await rendering.signIn('spa_kate');
    const pending = [1, 2, 3, 4, 5].map((n) => page(kate, `/slow?n=${n}`));
    // Two renders at a time (MAX_QUEUED_RENDERS): the other loads are answered while both still render.
    let answered = 0;
    for (const load of pending) void load.then(() => (answered += 1));
    while (answered < 5 - MAX_QUEUED_RENDERS) await new Promise((resolve) => setTimeout(resolve, 10));
    writeFileSync(path.join(dir, 'release'), '');
    const loads = await Promise.all(pending);
    const rendered = loads.filter((l) => bootOf(l.html)?.rendered);
    const shells = loads.filter((l) => !bootOf(l.html)?.rendered);
    // The rest got the page the browser renders, with the same user and data.
    expect(rendered).toHaveLength(MAX_QUEUED_RENDERS);
    expect(shells).toHaveLength(5 - MAX_QUEUED_RENDERS);
    for (const shell of shells) {
      expect(shell.status).toBe(200);
      expect(shell.html).toContain('<div id="root"></div>');
      expect(bootOf(shell.html)?.user?.discordUsername).toBe('spa_kate');
    }
  });

  it('falls back to the page the browser renders when rendering fails', async () => {
    const hana = await rendering.signIn('spa_hana');
    const res = await page(hana, '/broken');
    expect(res.status).toBe(200);
    expect(res.html).toContain('<div id="root"></div>');
    expect(res.html).not.toContain('data-emotion');
    expect(bootOf(res.html)?.rendered).toBeUndefined();
    expect(bootOf(res.html)?.user?.discordUsername).toBe('spa_hana');
    expect(res.html).not.toContain('fetchpriority');
  });
});

/** A page load as a browser makes it (gzip), its body's chunks as they arrive. */
function rawLoad(url: string, cookie: string) {
  const chunks: Buffer[] = [];
  let arrived: () => void = () => {};
  const firstChunk = new Promise<void>((resolve) => (arrived = resolve));
  const done = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            arrived();
          });
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    },
  );
  return { firstChunk, chunks, done };
}

describe('streamed while the renderer works (session 16)', () => {
  it("sends the page's head before the render ends, then the rendered page: one gzip stream, kept as it was sent", async () => {
    const lena = await rendering.signIn('spa_lena');
    const load = rawLoad(`${rendering.url}/held?x=1`, lena.cookieHeader);
    // The render cannot end before the test writes the release file: what arrived was sent before it.
    await load.firstChunk;
    const early = zlib
      .gunzipSync(Buffer.concat(load.chunks), { finishFlush: zlib.constants.Z_SYNC_FLUSH })
      .toString();
    expect(early).toMatch(/^<!doctype html><html lang="en"><head>/);
    expect(early).toContain('<meta property="og:url"');
    expect(early).toContain('window.__coinsyncEarlyInput');
    expect(early).not.toContain('</head>');
    expect(early).not.toContain('rendered for');
    writeFileSync(path.join(dir, 'release-held'), '');
    const res = await load.done;
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    const html = zlib.gunzipSync(res.body).toString();
    expect(html.startsWith(early)).toBe(true);
    expect(html).toContain('<title>CoinSync - Grow</title>');
    expect(html).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/held-page-abc.js"><style data-emotion="css abc">.css-abc{color:red}</style></head>',
    );
    expect(html).toContain('">rendered for spa_lena with 0 queries, rendered=true</main></div>');
    expect(bootOf(html)?.rendered).toBe(true);
    expect(bootOf(html)?.user?.discordUsername).toBe('spa_lena');
    // The next load is the kept page, byte for byte what was streamed.
    const again = await rawLoad(`${rendering.url}/held?x=1`, lena.cookieHeader).done;
    expect(again.body.equals(res.body)).toBe(true);
  });

  it('ends a page whose render fails after its head was sent as the static shell, a whole valid page', async () => {
    const mona = await rendering.signIn('spa_mona');
    writeFileSync(path.join(dir, 'release-held'), '');
    const res = await rawLoad(`${rendering.url}/held-broken`, mona.cookieHeader).done;
    expect(res.status).toBe(200);
    const html = zlib.gunzipSync(res.body).toString();
    expect(html).toContain('window.__coinsyncEarlyInput');
    expect(html).toContain('<title>CoinSync - Grow</title>');
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain('data-emotion');
    expect(html).not.toContain('fetchpriority');
    expect(bootOf(html)?.rendered).toBeUndefined();
    expect(bootOf(html)?.user?.discordUsername).toBe('spa_mona');
  });
});

describe('bootScript', () => {
  it('cannot be closed early by a value in the data', () => {
    const html = bootScript({
      user: { discordUsername: '</script><script>alert(1)</script>' } as unknown as ApiUser,
      config: {
        productName: 'CoinSync',
        demoMode: false,
        stripePublishableKey: null,
        stripeJsUrl: null,
        supportUrl: '',
      },
    });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(bootOf(html)?.user?.discordUsername).toBe('</script><script>alert(1)</script>');
  });
});

describe('bootScriptParts (session 15)', () => {
  const config = {
    productName: 'CoinSync',
    demoMode: false,
    stripePublishableKey: null,
    stripeJsUrl: null,
    supportUrl: '',
  };
  it("is bootScript in parts, each query's data one part, whatever the data holds", () => {
    const user = { discordUsername: ',"data":0}</script>' } as unknown as ApiUser;
    const boots: AppBoot[] = [
      { user, config },
      { user, config, queries: [] },
      {
        user,
        config,
        queries: [
          { key: ['/api/servers', 'pages', ''], data: { pages: [{ servers: [{ name: ',"data":1}<b>' }] }] } },
          { key: ['/api/servers', 'featured', ''], data: [{ name: '"data":0}', n: 3 }] },
          { key: ['/api/hourly'], data: null },
        ],
        rendered: true,
      },
    ];
    for (const boot of boots) {
      const parts = bootScriptParts(boot);
      expect(bootText(parts)).toBe(bootScript(boot));
      expect(parts).toHaveLength(boot.queries?.length ? 1 + 2 * boot.queries.length : 1);
    }
    const parts = bootScriptParts(boots[2]!);
    expect(parts[1]).toBe(JSON.stringify(boots[2]!.queries![0]!.data).replace(/</g, '\\u003c'));
    expect(parts[3]).toBe(JSON.stringify(boots[2]!.queries![1]!.data));
    expect(parts[5]).toBe('null');
  });

  it("takes an API answer's own JSON bytes as one part, as they are, `<` escaped (session 16)", () => {
    const servers = [{ name: '</script><b>x', n: 1 }];
    const bytes = Buffer.from(JSON.stringify(servers));
    const featured = encodedJson(bytes);
    expect(encodedJson(bytes)).toBe(featured); // one per Buffer: what is derived from it is derived once
    const boot: AppBoot = {
      user: null,
      config,
      queries: [
        { key: ['/api/servers', 'featured', ''], data: featured },
        { key: ['/api/hourly'], data: { a: 1 } },
      ],
    };
    const parts = bootScriptParts(boot);
    expect(parts[1]).toBe(featured);
    const plain: AppBoot = {
      ...boot,
      queries: [{ key: boot.queries![0]!.key, data: servers }, boot.queries![1]!],
    };
    expect(bootText(parts)).toBe(bootScript(plain));
    expect(bootScript(boot)).toBe(bootScript(plain));
    expect(bootText(parts).match(/<\/script>/g)).toHaveLength(1);
    expect(bootOf(bootText(parts))?.queries?.[0]?.data).toEqual(servers);
  });
});

describe("the page's own title and description", () => {
  it('replace the site title and description in the served page, escaped, when the server rendered it', async () => {
    const terms = (await page(rendering.anonymous(), '/terms')).html;
    expect(terms).toContain('<title>Terms &#38; &#60;Conditions&#62; | CoinSync</title>');
    expect(terms).toContain('content="Rules &#34;here&#34;."');
    expect(terms).not.toContain('CoinSync - Grow');
    // A page that names none keeps the site's; so does a page the server did not render.
    expect((await page(rendering.anonymous(), '/privacy')).html).toContain('<title>CoinSync - Grow</title>');
    expect((await page(app.anonymous(), '/terms')).html).toContain('<title>CoinSync - Grow</title>');
  });

  it('leaves the rest of the page as it was', () => {
    const html =
      '<head><meta name="description" content="a"><title>t</title><meta property="og:title" content="t"></head>';
    expect(withDocumentHead(html, {})).toBe(html);
    expect(withDocumentHead(html, { title: 'Rewards | CoinSync' })).toBe(
      '<head><meta name="description" content="a"><title>Rewards | CoinSync</title><meta property="og:title" content="t"></head>',
    );
  });
});

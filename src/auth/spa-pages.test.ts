import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppBoot, ApiUser } from '../shared/api-types.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { bootScript } from './spa-pages.ts';

// The SPA's HTML depends on the session: signed out, the prerendered login page; signed in, index.html
// with this session's own user inlined. The page is per user, so it must never be cached or mixed up.
let app: TestApp;
let dir: string;

const INDEX =
  '<!doctype html><head><meta property="og:url" content="__PUBLIC_ORIGIN__/"></head><div id="root"></div><!--app-boot--><script type="module" src="/assets/index-abc.js"></script>';
const LOGIN =
  '<!doctype html><meta property="og:url" content="__PUBLIC_ORIGIN__/"><div id="root"><button data-sign-in="">Continue with Discord</button></div><script type="module" src="/assets/login-static-abc.js"></script>';

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
  writeFileSync(path.join(dir, 'login.html'), LOGIN);
  writeFileSync(
    path.join(dir, 'route-preloads.json'),
    JSON.stringify({ '/': ['/assets/discover-page-abc.js'], '/terms': ['/assets/terms-page-abc.js'] }),
  );
  app = await startTestApp({ webDist: dir });
});
afterAll(async () => {
  await app.close();
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

  it('does not trust a forged session cookie', async () => {
    const res = await fetch(`${app.url}/dashboard`, { headers: { cookie: 'coinsync.sid=s%3Aforged.sig' } });
    const html = await res.text();
    expect(html).toContain('data-sign-in');
    expect(html).not.toContain('app-boot');
  });
});

describe('bootScript', () => {
  it('cannot be closed early by a value in the data', () => {
    const html = bootScript({
      user: { discordUsername: '</script><script>alert(1)</script>' } as unknown as ApiUser,
      config: { productName: 'CoinSync', demoMode: false, stripePublishableKey: null, supportUrl: '' },
    });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(bootOf(html)?.user?.discordUsername).toBe('</script><script>alert(1)</script>');
  });
});

import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TestClient, type TestApp } from '../test/harness.ts';
import { registry } from '../metrics.ts';
import { grantCoins } from '../test/factories.ts';
import { LOCALE_COOKIE } from './login-locale.ts';

// Signed-in pages on the fast path (decision 047 "Session 18"): the app's port serves the route table's
// pages through the fast path's pipeline (the guards' fast forms, then the page handler on Express's
// objects); a second port on the same process, database and clock serves `server.app`, the full stack.
// The same member's same request gets the same answer from both, and the cases the fast path must leave
// to the full stack (signed out, no gzip, a path outside the route table, HEAD) are left to it.

const INDEX =
  '<!doctype html><html lang="en"><head><title>CoinSync</title></head><div id="root"></div><!--app-boot--><script type="module" src="/assets/index-abc.js"></script>';

/** Headers whose value legitimately differs between two answers. */
const VOLATILE = new Set(['date', 'x-request-id', 'set-cookie', 'keep-alive', 'connection']);

async function answer(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VOLATILE.has(name)) headers[name] = value;
  });
  return {
    status: res.status,
    body: await res.text(),
    headers,
    setCookie: res.headers.getSetCookie().map((c) => c.replace(/; Expires=[^;]*/i, '; Expires=…')),
  };
}

/** Requests answered by the page route, by coinsync_http_requests_total's label. */
async function pageRequests(): Promise<number> {
  const text = await registry.getSingleMetricAsString('coinsync_http_requests_total');
  return text
    .split('\n')
    .filter((line) => line.includes('route="*static"'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

let app: TestApp;
let dir: string;
let plainServer: http.Server;
let plainUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'coinsync-fast-pages-'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(
    path.join(dir, 'route-preloads.json'),
    JSON.stringify({ '/': [], '/dashboard': ['/assets/dashboard-abc.js'], '/terms': [] }),
  );
  mkdirSync(path.join(dir, 'ssr'));
  // A stand-in renderer: the markup says whose page it is and with how many queries.
  writeFileSync(
    path.join(dir, 'ssr', 'entry-server.js'),
    `export async function renderApp(url, boot) {
      return { html: '<main>' + url + ' for ' + boot.user.discordUsername + ', ' + boot.user.coins + ' coins, ' + (boot.queries ?? []).length + ' queries</main>', head: '' };
    }`,
  );
  app = await startTestApp({ webDist: dir, ssrDist: path.join(dir, 'ssr'), env: { REDIS_URL: '' } });
  plainServer = http.createServer(app.server.app);
  await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
  plainUrl = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  plainServer.closeAllConnections();
  await new Promise((resolve) => plainServer.close(resolve));
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same member's cookies on the full stack's port. */
function onPlain(client: TestClient): TestClient {
  const twin = new TestClient(plainUrl, client.address);
  for (const [k, v] of client.cookies) twin.cookies.set(k, v);
  return twin;
}

const served = () => app.server.handler.fastPath!.served;

/** A first load, read to its end: the render is then in the page cache (and the language cookie set). */
async function warm(client: TestClient, pathname: string, init: RequestInit = {}) {
  await (await client.raw(pathname, init)).text();
}

/**
 * A browser's revalidation. fetch adds `Cache-Control: no-cache` to a request with If-None-Match unless
 * it has one (and with it no server answers 304); a browser's reload sends max-age=0.
 */
const revalidate = (etag: string) => ({ headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });

/** The request on both ports (fast first): both answers, and whether the fast path answered it itself. */
async function both(client: TestClient, pathname: string, init: RequestInit = {}) {
  const twin = onPlain(client);
  const before = served();
  const fast = await answer(await client.raw(pathname, init));
  const byFast = served() - before;
  const plain = await answer(await twin.raw(pathname, init));
  expect(served() - before, 'the full stack’s port never takes the fast path').toBe(byFast);
  return { fast, plain, byFast };
}

describe('signed-in pages on the fast path', () => {
  it('answers a page as the full stack does, from the same page cache, and a revisit with 304', async () => {
    const member = await app.signIn('fast_pages_member');
    // The first load renders; the ones compared come from the cache on both ports.
    await warm(member, '/dashboard');
    const pagesBefore = await pageRequests();
    const whole = await both(member, '/dashboard');
    expect(whole.byFast).toBe(1);
    expect(whole.fast).toEqual(whole.plain);
    expect(whole.fast.status).toBe(200);
    expect(whole.fast.body).toContain('/dashboard for fast_pages_member');
    expect(whole.fast.headers['content-encoding']).toBe('gzip');
    expect(whole.fast.headers['cache-control']).toBe('private, no-cache');
    expect(whole.fast.headers['content-security-policy']).toBeDefined();
    // Counted under the page route's label on both paths.
    expect((await pageRequests()) - pagesBefore).toBe(2);

    const etag = whole.fast.headers.etag!;
    const revisit = await both(member, '/dashboard', revalidate(etag));
    expect(revisit.byFast).toBe(1);
    expect(revisit.fast).toEqual(revisit.plain);
    expect(revisit.fast.status).toBe(304);

    // A write changes the page on both paths: the revisit gets the new page, not a 304.
    await grantCoins(app.server.ctx.store, member.user!.id, 1250);
    const changed = await both(member, '/dashboard', revalidate(etag));
    expect(changed.byFast).toBe(1);
    expect(changed.fast.status).toBe(200);
    expect(changed.fast.headers.etag).not.toBe(etag);
    // The fast load rendered the new page (streamed); the full stack's then came from the cache.
    expect(changed.fast.body).toMatch(/fast_pages_member, [0-9.]+ coins/);
    expect(changed.fast.body).not.toEqual(whole.fast.body);
    expect([changed.plain.status, changed.plain.body]).toEqual([200, changed.fast.body]);
    expect(changed.plain.headers.etag).toBe(changed.fast.headers.etag);
  });

  it('sets the language cookie as the full stack does, query strings included', async () => {
    const member = await app.signIn('fast_pages_language');
    await warm(member, '/terms?from=footer');
    member.cookies.delete(LOCALE_COOKIE);
    const first = await both(member, '/terms?from=footer');
    expect(first.byFast).toBe(1);
    expect(first.fast).toEqual(first.plain);
    expect(first.fast.setCookie.some((c) => c.startsWith(`${LOCALE_COOKIE}=en`))).toBe(true);
  });

  it('leaves to the full stack what it does not serve, with the same answers', async () => {
    const member = await app.signIn('fast_pages_others');
    await warm(member, '/dashboard');
    const anonymous = app.anonymous();
    const cases: [TestClient, string, RequestInit][] = [
      [anonymous, '/dashboard', {}],
      [member, '/dashboard', { headers: { 'accept-encoding': 'identity' } }],
      [member, '/no-such-page', {}],
      [member, '/Dashboard', {}],
      [member, '/dashboard/', {}],
      [member, '/dashboard', { method: 'HEAD' }],
    ];
    for (const [client, pathname, init] of cases) {
      await warm(client, pathname, init);
      const { fast, plain, byFast } = await both(client, pathname, init);
      expect(byFast, `${init.method ?? 'GET'} ${pathname}`).toBe(0);
      expect(fast, `${init.method ?? 'GET'} ${pathname}`).toEqual(plain);
    }
  });

  it('serves a page whose request carries an Authorization header by its session, as the full stack', async () => {
    const member = await app.signIn('fast_pages_token');
    await warm(member, '/');
    const { fast, plain, byFast } = await both(member, '/', {
      headers: { authorization: 'Bearer cs_pat_not_a_token' },
    });
    expect(byFast).toBe(1);
    expect(fast.status).toBe(200);
    expect(fast).toEqual(plain);
  });
});

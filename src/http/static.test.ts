import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestApp, type TestApp } from '../test/harness.ts';

// The built SPA: hashed assets cached for a year and gzipped, history fallback to index.html,
// JSON 404s under /api, and the CSP on pages.
let app: TestApp;
let dir: string;
const bundle = `console.log(${JSON.stringify('coin '.repeat(2000))});`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'coinsync-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><meta property="og:image" content="__PUBLIC_ORIGIN__/og-image.png"><div id="root"></div>',
  );
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /api/\n');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), bundle);
  app = await startTestApp({ webDist: dir });
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves hashed assets gzipped with a long immutable cache', async () => {
  const res = await fetch(`${app.url}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('gzip');
  expect(res.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
  expect(await res.text()).toBe(bundle);
});

it('answers a missing asset with 404 instead of the SPA', async () => {
  const res = await fetch(`${app.url}/assets/gone-000.js`);
  expect(res.status).toBe(404);
});

it('falls back to index.html for client routes, with the CSP and no caching', async () => {
  const res = await fetch(`${app.url}/campaigns`);
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('<div id="root">');
  expect(res.headers.get('cache-control')).toBe('no-cache');
  expect(res.headers.get('content-security-policy')).toContain("frame-src 'self' https://js.stripe.com");
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

it('keeps unknown API paths as JSON 404s', async () => {
  const res = await fetch(`${app.url}/api/does-not-exist`);
  expect(res.status).toBe(404);
  expect(await res.json()).toEqual({ message: 'Not found' });
});

it('serves real files at the root (robots.txt) and answers unknown file paths with 404, not the SPA', async () => {
  const robots = await fetch(`${app.url}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(robots.headers.get('content-type')).toMatch(/text\/plain/);
  expect(await robots.text()).toContain('Disallow: /api/');
  for (const missing of ['/favicon.ico', '/manifest.webmanifest', '/wp-login.php', '/deep/path/image.png']) {
    const res = await fetch(`${app.url}${missing}`);
    expect(res.status, missing).toBe(404);
    expect(await res.text()).not.toContain('<div id="root">');
  }
});

it('puts the public origin into the share-card meta tags', async () => {
  const html = await (await fetch(`${app.url}/`)).text();
  expect(html).toContain(`content="${app.url}/og-image.png"`);
  expect(html).not.toContain('__PUBLIC_ORIGIN__');
});

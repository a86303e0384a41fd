import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import type { ReadinessCheck } from '../ops/readiness.ts';
import { startTestApp, TestClient, type TestApp } from '../test/harness.ts';
import type { Guard } from './fast-path.ts';

// One request pipeline (issue 30, decision 046): a guard added to the API's list applies to every API
// route behind the guards, the fast path's routes included. Each test builds the product's app (the
// same ctx, session store and database as the running test app) with one guard added, serves it on
// its own port, and sends every route of the API router there as a signed-in member, and every page of
// the web build's route table (the pages stand behind the same guards: decision 047 "Session 18").

interface Layer {
  name?: string;
  route?: { path: unknown; methods: Record<string, boolean | undefined> };
  handle: { stack?: Layer[] };
}

/** Every route of the routers in `stack` (walked depth first), as method and path. */
function routesIn(stack: Layer[]): { method: string; path: string }[] {
  return stack.flatMap((layer) => {
    if (layer.route && typeof layer.route.path === 'string') {
      const path = layer.route.path;
      return Object.keys(layer.route.methods)
        .filter((m) => layer.route!.methods[m])
        .map((m) => ({ method: m === '_all' ? 'GET' : m.toUpperCase(), path }));
    }
    return layer.handle.stack ? routesIn(layer.handle.stack) : [];
  });
}

/** The API's routes behind its guards: every layer of the API router after the `apiGuards` layer. */
function guardedRoutes(app: { router: unknown }): { method: string; path: string }[] {
  const appStack = (app.router as { stack: Layer[] }).stack;
  const api = appStack.find((l) => l.handle.stack?.some((inner) => inner.name === 'apiGuards'));
  if (!api) throw new Error('no API router with an apiGuards layer');
  const stack = api.handle.stack!;
  return routesIn(stack.slice(stack.findIndex((l) => l.name === 'apiGuards') + 1));
}

/** A path for a route template: every parameter is `1`. */
const concrete = (template: string) => '/api' + template.replace(/[:*]\w+/g, '1');

/** The pages of the web build below (its route table, as scripts/build/pages.ts writes it). */
const PAGES = ['/', '/dashboard', '/history', '/terms'];

describe('a guard added to the API', () => {
  let app: TestApp;
  let member: TestClient;
  /** A web build: index.html and the route table (no renderer: pages are the static shell). */
  let webDist: string;

  /** The product's app with `guards` added, on its own port: its URL and listener. */
  async function withGuard(guard: Guard) {
    const { app: express, handler } = createApp(app.server.ctx, {
      sessionMiddleware: app.server.sessions.middleware,
      session: app.server.sessions.access,
      // Only the health routes read it, and they sit before the guards.
      readiness: undefined as unknown as ReadinessCheck,
      webDist,
      guards: [guard],
    });
    const server = http.createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = new TestClient(url, member.address, () => app.discoverSettled());
    for (const [k, v] of member.cookies) client.cookies.set(k, v);
    return {
      client,
      handler,
      routes: guardedRoutes(express),
      close: () => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      },
    };
  }

  /** A request the fast path would serve (without the added guard) or any other route. */
  const send = (client: TestClient, method: string, path: string) =>
    method === 'GET' ? client.get(path) : client.request(method, path, '{"type":"regular"}');

  beforeAll(async () => {
    webDist = mkdtempSync(path.join(os.tmpdir(), 'coinsync-pipeline-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html lang="en"><head><title>CoinSync</title></head><div id="root"></div><!--app-boot-->',
    );
    writeFileSync(
      path.join(webDist, 'route-preloads.json'),
      JSON.stringify(Object.fromEntries(PAGES.map((p) => [p, []]))),
    );
    // Write limits off: both fast routes (Discover and the claim) are fast without the added guard.
    app = await startTestApp({ env: { REDIS_URL: '', WRITE_LIMITS: 'off' } });
    member = await app.signIn('pipeline_member');
  });
  afterAll(async () => {
    await app.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('is applied to every route, the fast path’s included, when it has no fast form', async () => {
    const refusing: Guard = {
      name: 'refuse everything',
      middleware: (_req, res) => {
        res.status(418).json({ message: 'guarded' });
      },
    };
    const built = await withGuard(refusing);
    try {
      const { routes } = built;
      expect(routes).toContainEqual({ method: 'GET', path: '/servers' });
      expect(routes).toContainEqual({ method: 'POST', path: '/hourly/claim' });
      expect(routes.length).toBeGreaterThan(30);
      const skipped: string[] = [];
      for (const { method, path } of routes) {
        const res = await send(built.client, method, concrete(path));
        if (res.status !== 418) skipped.push(`${method} ${path}: ${res.status}`);
      }
      for (const page of PAGES) {
        const res = await built.client.get(page);
        if (res.status !== 418) skipped.push(`GET ${page} (page): ${res.status}`);
      }
      expect(skipped).toEqual([]);
      expect(built.handler.fastPath!.served).toBe(0);
    } finally {
      await built.close();
    }
  });

  it('runs on the fast path through its fast form, in front of every fast route', async () => {
    const ran: string[] = [];
    const counting: Guard = {
      name: 'count',
      middleware: (req, _res, next) => {
        ran.push(`full stack ${req.method} ${req.path}`);
        next();
      },
      fast: (call, next) => {
        ran.push(`fast path ${call.req.method} ${call.path}`);
        next();
      },
    };
    const built = await withGuard(counting);
    try {
      expect((await send(built.client, 'GET', '/api/servers')).status).toBe(200);
      expect((await send(built.client, 'POST', '/api/hourly/claim')).status).toBe(200);
      expect((await send(built.client, 'GET', '/api/hourly')).status).toBe(200);
      expect((await send(built.client, 'GET', '/dashboard')).status).toBe(200);
      // A page outside the route table (404) is the full stack's, behind the same guard.
      expect((await send(built.client, 'GET', '/no-such-page')).status).toBe(404);
      expect(built.handler.fastPath!.served).toBe(3);
      expect(ran).toEqual([
        'fast path GET /servers',
        'fast path POST /hourly/claim',
        'full stack GET /hourly',
        'fast path GET /dashboard',
        'full stack GET /no-such-page',
      ]);
    } finally {
      await built.close();
    }
  });
});

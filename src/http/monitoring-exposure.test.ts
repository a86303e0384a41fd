import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { metricsHandler } from './metrics-route.ts';
import { healthRoutes } from '../ops/health-routes.ts';

// Issue 27 item 5: /metrics exactly at its path and token-only in production; /api/ready's details
// only to monitoring (loopback without proxy headers, or the METRICS_TOKEN bearer).

const TOKEN = 'monitoring-token-0123456789';

async function serve(app: express.Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('/metrics', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('is served at exactly /metrics, not /METRICS, /metrics/ or //metrics', async () => {
    const client = app.anonymous();
    const ok = await client.raw('/metrics');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('coinsync_http_requests_total');
    for (const path of ['/METRICS', '/metrics/', '//metrics', '/Metrics']) {
      const res = await client.raw(path);
      expect(await res.text(), path).not.toContain('coinsync_http_requests_total');
    }
  });

  it('does not exist in production without METRICS_TOKEN, and answers its bearer with it', async () => {
    const off = express().use(metricsHandler(undefined, true));
    off.use((_req, res) => {
      res.status(404).json({ message: 'Not found' });
    });
    const on = express().use(metricsHandler(TOKEN, true));
    const [a, b] = await Promise.all([serve(off), serve(on)]);
    try {
      expect((await fetch(`${a.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${b.url}/metrics`)).status).toBe(401);
      expect(
        (await fetch(`${b.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
      ).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('/api/ready', () => {
  it('tells failure details to monitoring only', async () => {
    const failing = express().use(
      '/api',
      healthRoutes(
        () =>
          Promise.resolve({
            ready: false,
            checks: { database: { ok: false, detail: 'disk full at /var/lib/x' } },
          }),
        TOKEN,
      ),
    );
    const s = await serve(failing);
    try {
      const proxied = await fetch(`${s.url}/api/ready`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.status).toBe(503);
      const body = await proxied.text();
      expect(body).not.toContain('disk full');
      expect(JSON.parse(body)).toEqual({ status: 'not_ready', message: 'Not ready' });
      const withToken = await fetch(`${s.url}/api/ready`, {
        headers: { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` },
      });
      expect(await withToken.text()).toContain('disk full');
      const loopback = await fetch(`${s.url}/api/ready`);
      expect(await loopback.text()).toContain('disk full');
    } finally {
      await s.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from './test/harness.ts';
import { createTestStore } from './test/db.ts';
import { insertUser } from './test/factories.ts';
import { credit, debit } from './ledger/index.ts';
import { DiscordApi } from './discord/discord-api.ts';
import { discordRouteTemplate, readMetric } from './metrics.ts';
import { requestContext } from './http/request-context.ts';
import { errorHandler } from './http/errors.ts';
import { createLogger } from './logger.ts';
import { startBotTestApp } from './bot/bot-test-kit.ts';

let app: TestApp;
const TOKEN = 'metrics-token-for-tests-0123456789';
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** The value of one sample line in Prometheus text output, e.g. a counter with its labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').pop());
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('counts requests by route template and status, in Prometheus text format', async () => {
    const client = app.anonymous();
    const before =
      (await readMetric('coinsync_http_requests_total', { route: '/api/config', status: '200' })) ?? 0;
    await client.get('/api/config');
    await client.get('/api/config');
    await client.get('/api/no-such-thing');
    // A route inside a router mounted at /api keeps its full template.
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const res = await client.raw('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(
      sample(text, 'coinsync_http_requests_total', { method: 'GET', route: '/api/config', status: '200' }),
    ).toBe(before + 2);
    expect(
      sample(text, 'coinsync_http_requests_total', { route: '/api/*unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'coinsync_http_requests_total', { route: '/api/auth/user', status: '401' }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain(
      'coinsync_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/config",status_class="2xx"}',
    );
    // Default process metrics come along (memory, event loop lag).
    expect(text).toContain('coinsync_process_resident_memory_bytes');
    expect(text).toContain('coinsync_nodejs_eventloop_lag_seconds');
  });

  it('refuses requests that came through a proxy when no METRICS_TOKEN is set', async () => {
    const res = await app.anonymous().raw('/metrics', { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toContain('METRICS_TOKEN');
  });

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const secured = await startTestApp({ env: { METRICS_TOKEN: TOKEN } });
    try {
      const client = secured.anonymous();
      expect((await client.raw('/metrics')).status).toBe(401);
      expect((await client.raw('/metrics', { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(
        401,
      );
      const ok = await client.raw('/metrics', {
        headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('coinsync_http_requests_total');
    } finally {
      await secured.close();
    }
  });
});

describe('request ids', () => {
  it('answers every request with an X-Request-Id, keeping a sane incoming one', async () => {
    const client = app.anonymous();
    const fresh = await client.get('/api/config');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await client.request('GET', '/api/config', undefined, { 'x-request-id': 'edge-42.abc' });
    expect(kept.headers.get('x-request-id')).toBe('edge-42.abc');
    const replaced = await client.request('GET', '/api/config', undefined, {
      'x-request-id': 'bad id\twith spaces',
    });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id on the log line of an unhandled error', async () => {
    const logger = createLogger('silent', undefined, { format: 'json' });
    const small = express();
    small.use(requestContext(logger));
    small.get('/boom', () => {
      throw new Error('kaboom');
    });
    small.use(errorHandler(logger));
    const server = small.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/boom`, { headers: { 'x-request-id': 'trace-me-1' } });
      expect(res.status).toBe(500);
      const lines = logger.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const error = lines.find((l) => l.msg === 'unhandled error');
      expect(error).toMatchObject({ requestId: 'trace-me-1', method: 'GET', path: '/boom' });
      expect(String(error?.error)).toContain('kaboom');
      await new Promise((r) => setTimeout(r, 20));
      expect(
        logger.lines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === 'request failed'),
      ).toMatchObject({
        requestId: 'trace-me-1',
        status: 500,
        route: '/boom',
      });
    } finally {
      server.close();
    }
  });
});

describe('domain counters', () => {
  it('counts ledger writes by type, direction and outcome', async () => {
    const t = await createTestStore('sqlite');
    try {
      const user = await insertUser(t.store);
      const read = (direction: string, outcome: string) =>
        readMetric('coinsync_ledger_writes_total', { type: 'daily', direction, outcome });
      const [ok, dup, refused] = [
        await read('credit', 'ok'),
        await read('credit', 'duplicate'),
        await read('debit', 'refused'),
      ];
      await credit(t.store, { userId: user.id, cents: 100, type: 'daily', idempotencyKey: 'k1', now: 1 });
      await credit(t.store, { userId: user.id, cents: 100, type: 'daily', idempotencyKey: 'k1', now: 1 });
      await expect(debit(t.store, { userId: user.id, cents: 500, type: 'daily', now: 2 })).rejects.toThrow(
        /Insufficient/,
      );
      expect(await read('credit', 'ok')).toBe(ok + 1);
      expect(await read('credit', 'duplicate')).toBe(dup + 1);
      expect(await read('debit', 'refused')).toBe(refused + 1);
    } finally {
      await t.dispose();
    }
  });

  it('counts Discord 429s by route template on our REST client', async () => {
    let calls = 0;
    const api = new DiscordApi({
      baseUrl: 'http://discord.invalid',
      botToken: 't',
      fetch: () => {
        calls += 1;
        return Promise.resolve(
          calls === 1
            ? new Response(JSON.stringify({ retry_after: 0, global: false }), { status: 429 })
            : new Response(JSON.stringify({ user: { id: '1' }, joined_at: '2026-01-01T00:00:00Z' }), {
                status: 200,
              }),
        );
      },
    });
    const route = '/guilds/:id/members/:id';
    const before = await readMetric('coinsync_discord_rate_limited_total', { source: 'rest', route });
    await api.getGuildMember('123456789012345678', '223456789012345678');
    expect(calls).toBe(2);
    expect(await readMetric('coinsync_discord_rate_limited_total', { source: 'rest', route })).toBe(
      before + 1,
    );
  });

  it('turns Discord paths into bounded route labels', () => {
    expect(discordRouteTemplate('/guilds/123456789012345678/members/223456789012345678?x=1')).toBe(
      '/guilds/:id/members/:id',
    );
    expect(discordRouteTemplate('/invites/AbC123?with_counts=true')).toBe('/invites/:code');
  });

  it('counts bot events and reconciliation runs from the live bot', async () => {
    const until = async (read: () => Promise<number>, above: number) => {
      for (let i = 0; i < 250; i++) {
        const value = await read();
        if (value > above) return value;
        await new Promise((r) => setTimeout(r, 20));
      }
      return read();
    };
    const success = () => readMetric('coinsync_reconciliation_runs_total', { outcome: 'success' });
    const adds = () => readMetric('coinsync_bot_events_total', { event: 'member_add', outcome: 'ok' });
    const reconciledBefore = await success();
    const botApp = await startBotTestApp();
    try {
      // Connecting triggers a reconciliation run.
      expect(await until(success, reconciledBefore)).toBe(reconciledBefore + 1);
      expect(await readMetric('coinsync_reconciliation_last_success_timestamp_seconds')).toBeGreaterThan(0);

      const owner = await botApp.signIn('metrics_owner');
      const member = await botApp.signIn('metrics_member');
      const addsBefore = await adds();
      const guild = botApp.sim.state.createGuild({ name: 'Metrics Guild', ownerId: owner.user!.discordId });
      botApp.sim.state.addMember(guild.id, member.user!.discordId);
      expect(await until(adds, addsBefore)).toBe(addsBefore + 1);
    } finally {
      await botApp.close();
    }
  });
});

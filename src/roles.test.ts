import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { ConfigError } from './config.ts';
import { JOB } from './background.ts';
import { startServer } from './server.ts';
import { startTestApp, TEST_DISCORD, TEST_SECRETS, type TestApp } from './test/harness.ts';
import { waitFor } from './bot/bot-test-kit.ts';

// What each ROLE composes (decision 028). Production splits by ROLE on PostgreSQL only; these tests
// compose each role on this process's own SQLite file through StartOptions.role and check what it
// runs and serves.

interface ReadyBody {
  status: string;
  checks: Record<string, { ok: boolean; detail: string }>;
}

describe('ROLE=web', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ role: 'web', background: true });
  });
  afterAll(() => app.close());

  it('serves the API and dashboard with no gateway and no periodic jobs', async () => {
    expect(app.server.background.bot).toBeUndefined();
    expect(app.server.background.periodic).toBeUndefined();
    const names = app.server.jobs.list().map((j) => j.name);
    for (const job of [JOB.reconcile, JOB.inviteRecheck, JOB.prune]) expect(names).not.toContain(job);
    const member = await app.signIn('web_role_member');
    expect((await member.get('/api/servers')).status).toBe(200);
    const ready = await app.anonymous().get<ReadyBody>('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.gateway).toEqual({ ok: true, detail: 'off (ROLE=web)' });
    expect(ready.body.checks.reconciliation!.detail).toBe('off (no bot in this process)');
  });
});

describe('ROLE=bot', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ role: 'bot', shards: { ids: [0], count: 1 }, background: true });
    await app.server.background.bot!.ready;
  });
  afterAll(() => app.close());

  it('runs its shards and the periodic jobs, and serves only health, readiness and metrics', async () => {
    const client = app.server.background.bot!.client!;
    expect([...client.ws.shards.keys()]).toEqual([0]);
    expect(app.server.background.reconcileJobs).toEqual(['reconcile:shard-0']);
    expect(app.server.jobs.list().map((j) => j.name)).toEqual(
      expect.arrayContaining(['reconcile:shard-0', JOB.inviteRecheck, JOB.prune]),
    );
    // The connect-time reconciliation of its shard makes it ready.
    await waitFor(() => app.server.jobs.get('reconcile:shard-0')?.lastSuccessAt != null, 10_000, 'reconcile');
    const ready = await app.anonymous().get<ReadyBody>('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.gateway).toEqual({
      ok: true,
      detail: 'connected (shard 0 of 1 ready); members intent: on',
    });
    expect(ready.body.checks.reconciliation!.detail).toMatch(/^last success/);
    expect((await app.anonymous().get('/api/health')).status).toBe(200);
    // No API, no dashboard, no sign-in here.
    const api = await app.anonymous().get<{ message: string }>('/api/servers');
    expect(api.status).toBe(404);
    const page = await app.anonymous().get<{ message: string }>('/');
    expect(page.status).toBe(404);
    expect(page.body.message).toContain('ROLE=bot');
    expect((await app.anonymous().get('/auth/discord')).status).toBe(404);
  });
});

describe('ROLE from the environment', () => {
  it('refuses ROLE=web and ROLE=bot on SQLite at start (the file belongs to one process), before taking the port', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    for (const role of ['web', 'bot']) {
      const start = startServer({
        port,
        env: {
          NODE_ENV: 'test',
          ROLE: role,
          REDIS_URL: 'redis://127.0.0.1:6379',
          DISCORD_CLIENT_ID: TEST_DISCORD.clientId,
          ...TEST_SECRETS,
          DISCORD_CLIENT_SECRET: TEST_DISCORD.clientSecret,
          DISCORD_BOT_TOKEN: TEST_DISCORD.botToken,
          LOG_LEVEL: 'silent',
        },
      });
      await expect(start).rejects.toThrow(ConfigError);
      await expect(start).rejects.toThrow(
        `ROLE=${role} runs beside other processes and needs PostgreSQL (DATABASE_URL)`,
      );
    }
    // Nothing was left listening.
    await new Promise<void>((resolve, reject) => {
      const probe = net
        .createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => probe.close(() => resolve()));
    });
  });
});

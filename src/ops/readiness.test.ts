import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { admin, pgTestsEnabled } from '../test/pg.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { testEngine } from '../test/db.ts';
import { MINUTE, SECOND } from '../clock.ts';
import { FAILURES_BEFORE_UNREADY } from './job-monitor.ts';
import { GATEWAY_GRACE_MS } from './readiness.ts';
import { STORAGE_UNAVAILABLE_MESSAGE } from '../http/errors.ts';

interface ReadyBody {
  status: string;
  message?: string;
  checks: Record<string, { ok: boolean; detail: string }>;
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('health and readiness without the bot', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('is ready when the database takes a write, saying the bot is off', async () => {
    const ready = await app.anonymous().get<ReadyBody>('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
    expect(ready.body.checks.database).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^write succeeded/),
    });
    expect(ready.body.checks.gateway!.detail).toMatch(/^off/);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    const rows = await app.query<{ at: number | string }>(
      sql`SELECT checked_at AS at FROM ops_heartbeat WHERE id = 1`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.at)).toBe(app.clock.now());
  });

  it('fails readiness, not liveness, with the reason when database writes fail', async () => {
    // SQLite: every write fails, as on a full or read-only disk. PostgreSQL: the heartbeat's table is
    // gone, so its write fails with PostgreSQL's reason.
    const sqlite = app.engine === 'sqlite' ? app.server.database!.sqlite : undefined;
    if (sqlite) sqlite.pragma('query_only = ON');
    else await app.exec(sql`ALTER TABLE ops_heartbeat RENAME TO ops_heartbeat_away`);
    try {
      const ready = await app.anonymous().get<ReadyBody>('/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.message).toMatch(
        sqlite
          ? /^Not ready: database: write failed: .*readonly/
          : /^Not ready: database: write failed: .*ops_heartbeat/,
      );
      expect(ready.body.checks.database!.ok).toBe(false);
      const health = await app.anonymous().get('/api/health');
      expect(health.status).toBe(200);
      expect(health.body).toEqual({ status: 'ok' });
    } finally {
      if (sqlite) sqlite.pragma('query_only = OFF');
      else await app.exec(sql`ALTER TABLE ops_heartbeat_away RENAME TO ops_heartbeat`);
    }
    expect((await app.anonymous().get('/api/ready')).status).toBe(200);
  });
});

describe.skipIf(!(await pgTestsEnabled()))('readiness on PostgreSQL', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Readiness and the sessions on PostgreSQL (decision 028), in a process without a bot.
    app = await startTestApp({ engine: 'pg', env: { REDIS_URL: '' } });
  });
  afterAll(() => app?.close());

  it('writes its heartbeat row through the store, with sessions in the database', async () => {
    expect(app.server.database).toBeUndefined();
    expect(app.server.sessions.kind).toBe('pg');
    const ready = await app.anonymous().get<ReadyBody>('/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^write succeeded/),
    });
    expect(ready.body.checks.redis).toEqual({
      ok: true,
      detail: 'not configured (sessions in the database)',
    });
    const [row] = await app.query<{ at: number }>(
      sql`SELECT checked_at AS at FROM ops_heartbeat WHERE id = 1`,
    );
    expect(row!.at).toBe(app.clock.now());
  });

  it('fails readiness, not liveness, with PostgreSQL’s reason when the heartbeat write fails', async () => {
    await app.exec(sql`ALTER TABLE ops_heartbeat RENAME TO ops_heartbeat_away`);
    try {
      const ready = await app.anonymous().get<ReadyBody>('/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.message).toMatch(/^Not ready: database: write failed: .*ops_heartbeat/);
      expect((await app.anonymous().get('/api/health')).status).toBe(200);
    } finally {
      await app.exec(sql`ALTER TABLE ops_heartbeat_away RENAME TO ops_heartbeat`);
    }
    expect((await app.anonymous().get('/api/ready')).status).toBe(200);
  });

  it('answers 503 with a message (not 500) while PostgreSQL refuses writes, changes nothing, and logs the SQLSTATE', async () => {
    const client = await app.signIn('standby_writer');
    const before = await client.balanceCents();
    const [{ name } = { name: '' }] = await app.query<{ name: string }>(
      sql`SELECT current_database() AS name`,
    );
    // A standby after a failover: every new connection is read-only, and the pool's open ones are ended
    // (their next use fails as a lost connection, also storage trouble).
    const endConnections = (c: { query(text: string, values: unknown[]): Promise<unknown> }) =>
      c.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
    await admin(async (c) => {
      await c.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
      await endConnections(c);
    });
    const statuses: number[] = [];
    try {
      for (let i = 0; i < 6; i += 1) {
        const claim = await client.post<{ message: string }>('/api/hourly/claim', { type: 'regular' });
        statuses.push(claim.status);
        expect(claim.body.message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
        expect(claim.headers.get('retry-after')).toBe('60');
        if (app.logLines.some((l) => l.includes('answering 503') && l.includes('25006'))) break;
      }
    } finally {
      await admin(async (c) => {
        await c.query(`ALTER DATABASE "${name}" RESET default_transaction_read_only`);
        await endConnections(c);
      });
    }
    expect(new Set(statuses)).toEqual(new Set([503]));
    expect(app.logLines.some((l) => l.includes('answering 503') && l.includes('25006'))).toBe(true);
    expect(app.logLines.some((l) => l.includes('unhandled error'))).toBe(false);
    expect(await client.balanceCents()).toBe(before);
    await app.checkLedger();
    // Writable again: once the pool has replaced its ended connections, the same claim pays.
    let status = 0;
    for (let i = 0; i < 6 && status !== 200; i += 1) {
      status = (await client.post('/api/hourly/claim', { type: 'regular' })).status;
      expect([200, 503]).toContain(status);
    }
    expect(status).toBe(200);
  });
});

describe('readiness with the live bot', () => {
  let app: TestApp;
  const ready = () => app.anonymous().get<ReadyBody>('/api/ready');
  beforeAll(async () => {
    // SQLite sessions, so the session prune timer is among the jobs.
    app = await startTestApp({ background: true, env: { REDIS_URL: '' } });
    await app.server.background.bot!.ready;
    await until(() => app.server.jobs.get('reconcile')?.lastSuccessAt != null, 'first reconciliation');
  });
  afterAll(() => app.close());

  it('is ready once the gateway is connected and reconciliation has run', async () => {
    const res = await ready();
    expect(res.status).toBe(200);
    expect(res.body.checks.gateway).toEqual({
      ok: true,
      detail: 'connected (shard 0 of 1 ready); members intent: on',
    });
    expect(res.body.checks.reconciliation!.detail).toMatch(/^last success/);
  });

  it('every background job survives its own failure; repeated failures fail readiness until one succeeds', async () => {
    // No Stripe in this app: the Stripe reconciliation has nothing to read, and cannot fail here.
    const names = app.server.jobs
      .list()
      .map((j) => j.name)
      .filter((n) => n !== 'stripe reconcile');
    expect(names).toEqual(
      expect.arrayContaining(['reconcile', 'invite recheck', 'session prune', 'reminders']),
    );
    // Real database errors in every job: the tables they read are gone (on either engine).
    const tables = ['server_joins', 'servers', 'sessions', 'notification_outbox', 'reminders_due'];
    for (const t of tables) await app.exec(sql.raw(`ALTER TABLE ${t} RENAME TO ${t}_away`));
    // PostgreSQL: the pool's own error, or drizzle's wrapper of it ("Failed query: …", whose logged
    // stack leaves out the cause).
    const missingTable = app.engine === 'pg' ? /relation \S+ does not exist|Failed query: / : /no such table/;
    try {
      for (let i = 0; i < FAILURES_BEFORE_UNREADY; i++)
        for (const name of names) await app.server.jobs.run(name);
      for (const name of names) {
        expect(app.server.jobs.get(name)?.consecutiveFailures, name).toBe(FAILURES_BEFORE_UNREADY);
        expect(
          app.logLines.some((l) => l.includes(`ERROR ${name} failed`) && missingTable.test(l)),
          name,
        ).toBe(true);
      }
      const res = await ready();
      expect(res.status).toBe(503);
      expect(res.body.message).toContain(`reconciliation: failed ${FAILURES_BEFORE_UNREADY} times in a row`);
      expect(res.body.checks.jobs!.detail).toContain(
        `session prune failed ${FAILURES_BEFORE_UNREADY} times in a row`,
      );
      expect(res.body.checks.jobs!.detail).toContain('invite recheck failed');
      expect((await app.anonymous().get('/api/health')).status).toBe(200);
    } finally {
      for (const t of tables) await app.exec(sql.raw(`ALTER TABLE ${t}_away RENAME TO ${t}`));
    }
    for (const name of names) await app.server.jobs.run(name);
    for (const name of names) expect(app.server.jobs.get(name)?.consecutiveFailures, name).toBe(0);
    expect((await ready()).status).toBe(200);
  });

  it('fails when reconciliation has not succeeded for three intervals', async () => {
    app.clock.advance(16 * MINUTE);
    const stale = await ready();
    expect(stale.status).toBe(503);
    expect(stale.body.message).toMatch(/reconciliation: last success 16 min ago \(limit 15 min\)/);
    await app.server.jobs.run('reconcile');
    expect((await ready()).status).toBe(200);
  });

  it('tolerates a short gateway outage, then fails with how long it has been down', async () => {
    app.sim.state.setGatewayOnline(false);
    try {
      await until(
        async () => (await ready()).body.checks.gateway!.detail.startsWith('connecting'),
        'gateway seen down',
      );
      expect((await ready()).status).toBe(200);
      app.clock.advance(GATEWAY_GRACE_MS + 5 * SECOND);
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body.message).toMatch(/gateway: not connected for 6\d s/);
    } finally {
      app.sim.state.setGatewayOnline(true);
    }
    await until(async () => (await ready()).status === 200, 'gateway back', 15_000);
    // The outage and the return are in the log (issue 29: a 70 s outage logged nothing).
    expect(app.logLines.some((l) => l.includes('bot: gateway disconnected; reconnecting'))).toBe(true);
    expect(app.logLines.some((l) => /bot: gateway (session resumed|new session ready)/.test(l))).toBe(true);
  }, 30_000);
});

// SQLite: the product maps SQLite's storage errors (SQLITE_FULL/IOERR/READONLY/BUSY/CANTOPEN,
// src/shared/errors.ts) to a 503, and query_only stands in for a full or read-only disk. PostgreSQL's
// (read-only after a failover, disk full, connection lost) is the case in 'readiness on PostgreSQL'.
describe.skipIf(testEngine() === 'pg')('a write the disk refuses', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('answers 503 with a message (not 500), changes nothing, and logs the SQLite code', async () => {
    const client = await app.signIn('disk_full');
    const before = await client.balanceCents();
    const { sqlite } = app.server.database!;
    sqlite.pragma('query_only = ON'); // like a full or read-only disk: every write fails
    try {
      const claim = await client.post<{ message: string }>('/api/hourly/claim', { type: 'regular' });
      expect(claim.status).toBe(503);
      expect(claim.body.message).toBe(STORAGE_UNAVAILABLE_MESSAGE);
      expect(claim.headers.get('retry-after')).toBe('60');
      expect(
        app.logLines.some(
          (l) => l.includes('database write failed; answering 503') && l.includes('SQLITE_READONLY'),
        ),
      ).toBe(true);
    } finally {
      sqlite.pragma('query_only = OFF');
    }
    expect(await client.balanceCents()).toBe(before);
    await app.checkLedger();
    expect((await client.post('/api/hourly/claim', { type: 'regular' })).status).toBe(200);
  });
});

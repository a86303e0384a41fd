import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestApp, TestClient, TEST_DISCORD, TEST_SECRETS, type TestApp } from '../test/harness.ts';
import { startServer } from '../server.ts';
import { createLogger } from '../logger.ts';
import { SESSION_COOKIE } from './session.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

function decodeSid(cookieValue: string): string {
  // express-session cookie: "s:<sid>.<signature>", URL-encoded.
  return decodeURIComponent(cookieValue).slice(2).split('.')[0]!;
}

describe('session stores', () => {
  it.skipIf(!process.env.REDIS_URL)('keeps sessions in Redis when REDIS_URL is set', async () => {
    // The deployment's REDIS_PREFIX (not the harness's per-file prefix) starts every session key.
    const prefix = `coinsync-test-${Math.random().toString(36).slice(2, 10)}:`;
    const app = await startTestApp({ redisPrefix: undefined, env: { REDIS_PREFIX: prefix } });
    apps.push(app);
    expect(app.server.sessions.kind).toBe('redis');
    const client = await app.signIn('redis_user');
    const sid = decodeSid(client.cookies.get(SESSION_COOKIE)!);
    const redis = createClient({ url: process.env.REDIS_URL });
    await redis.connect();
    try {
      const keys = await redis.keys(`*${sid}`);
      expect(keys).toEqual([`${prefix}sess:${sid}`]);
      const stored = JSON.parse((await redis.get(keys[0]!))!) as { passport?: { user?: { id: string } } };
      expect(stored.passport?.user?.id).toBe(client.user!.id);
      await client.post('/api/auth/logout');
      expect(await redis.exists(keys[0]!)).toBe(0);
    } finally {
      await redis.close();
    }
  });

  // Without Redis the sessions live in the app's database: the SQLite file's store (src/auth/session.ts),
  // or on PostgreSQL (TEST_DB=pg) src/auth/pg-session-store.ts. Either way a restart keeps them.
  it('keeps sessions in the database without Redis, and they survive a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-sess-'));
    const dbPath = path.join(dir, 'app.db');
    const app = await startTestApp({ env: { REDIS_URL: '', DATABASE_PATH: dbPath } });
    apps.push(app);
    expect(app.server.sessions.kind).toBe(app.engine);
    const client = await app.signIn(`${app.engine}_user`);
    const sid = decodeSid(client.cookies.get(SESSION_COOKIE)!);
    const rows = await app.query<{ sess: string }>(sql`SELECT sess FROM sessions WHERE sid = ${sid}`);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.sess)).toMatchObject({ passport: { user: { id: client.user!.id } } });
    const { database } = app.server.config;

    // A second process over the same database (file, or PostgreSQL database) accepts the same cookie.
    const restarted = await startServer({
      port: 0,
      clock: app.clock,
      logger: createLogger('silent'),
      background: false,
      env: {
        NODE_ENV: 'test',
        DATABASE_PATH: dbPath,
        ...(database.kind === 'pg' ? { DATABASE_URL: database.url } : {}),
        DISCORD_CLIENT_ID: TEST_DISCORD.clientId,
        ...TEST_SECRETS,
        DISCORD_CLIENT_SECRET: TEST_DISCORD.clientSecret,
        DISCORD_BOT_TOKEN: TEST_DISCORD.botToken,
        DISCORD_BASE_URL: app.sim.url,
        LOG_LEVEL: 'silent',
      },
    });
    try {
      const again = new TestClient(restarted.url);
      again.cookies.set(SESSION_COOKIE, client.cookies.get(SESSION_COOKIE)!);
      expect(restarted.sessions.kind).toBe(app.engine);
      const me = await again.get<{ id: string }>('/api/auth/user');
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(client.user!.id);
    } finally {
      await restarted.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

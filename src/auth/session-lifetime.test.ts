import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DAY, HOUR, MINUTE } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { SESSION_COOKIE, SESSION_LIFETIMES } from './session.ts';
import { signOutEverywhere } from './sign-out-everywhere.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import type { EngineKind } from '../db/engine.ts';

// Runs against the SQLite store always, the PostgreSQL store when PostgreSQL answers (always on CI),
// and Redis too when REDIS_URL is set (CI).
const stores: { name: string; env: Record<string, string>; engine: EngineKind }[] = [
  { name: 'sqlite', env: { REDIS_URL: '' }, engine: 'sqlite' },
  ...((await pgTestsEnabled())
    ? [
        {
          name: 'postgresql',
          // Same-address recording (at sign-in) off here, as when it ran on SQLite only (decision 028).
          env: { REDIS_URL: '', SAME_ADDRESS_WINDOW_DAYS: '0' },
          engine: 'pg' as const,
        },
      ]
    : []),
  ...(process.env.REDIS_URL ? [{ name: 'redis', env: {}, engine: 'sqlite' as const }] : []),
];

function sidOf(client: TestClient): string {
  return decodeURIComponent(client.cookies.get(SESSION_COOKIE)!).slice(2).split('.')[0]!;
}

async function sessionExists(app: TestApp, sid: string): Promise<boolean> {
  const { redis, redisPrefix } = app.server.ctx.sessions;
  if (redis) return (await redis.exists(`${redisPrefix}${sid}`)) === 1;
  return (await app.query(sql`SELECT 1 AS one FROM sessions WHERE sid = ${sid}`)).length === 1;
}

async function deleteSession(app: TestApp, sid: string): Promise<void> {
  const { redis, redisPrefix } = app.server.ctx.sessions;
  if (redis) await redis.del(`${redisPrefix}${sid}`);
  else await app.exec(sql`DELETE FROM sessions WHERE sid = ${sid}`);
}

async function sessionTtlMs(app: TestApp, sid: string): Promise<number> {
  const { redis, redisPrefix } = app.server.ctx.sessions;
  if (redis) return redis.pTTL(`${redisPrefix}${sid}`);
  const [row] = await app.query<{ e: number }>(sql`SELECT expires_at AS e FROM sessions WHERE sid = ${sid}`);
  return row!.e - Date.now();
}

describe.each(stores)('sessions in $name', ({ env, engine }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env, engine });
  });
  afterAll(() => app.close());

  it('keeps a sign-in that has not finished for minutes only', async () => {
    const visitor = app.anonymous();
    const start = await visitor.raw('/api/auth/discord');
    expect(start.status).toBe(302);
    const cookie = start.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    const expires = Date.parse(/Expires=([^;]+)/i.exec(cookie)?.[1] ?? '');
    expect(expires - Date.now()).toBeLessThanOrEqual(SESSION_LIFETIMES.preLoginMs);
    const ttl = await sessionTtlMs(app, sidOf(visitor));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10 * MINUTE);
  });

  it('gives a signed-in session the idle lifetime, not the pre-login one', async () => {
    const member = await app.signIn('lifetime_member');
    expect(await sessionTtlMs(app, sidOf(member))).toBeGreaterThan(6 * DAY);
  });

  it('ends a session on its next request once its stored row is deleted', async () => {
    const member = await app.signIn('revoked_member');
    expect((await member.get('/api/auth/user')).status).toBe(200);
    await deleteSession(app, sidOf(member));
    expect((await member.get('/api/auth/user')).status).toBe(401);
  });

  it('ends a session after the idle timeout, and keeps one in use alive until the absolute lifetime', async () => {
    const idle = await app.signIn('idle_member');
    const busy = await app.signIn('busy_member');
    for (let elapsed = 0; elapsed < SESSION_LIFETIMES.idleMs; elapsed += DAY) {
      app.clock.advance(DAY);
      expect((await busy.get('/api/auth/user')).status).toBe(200);
    }
    expect((await idle.get('/api/auth/user')).status).toBe(401);
    // Used every day, the busy session still ends 30 days after its sign-in.
    let days = SESSION_LIFETIMES.idleMs / DAY;
    while (days < SESSION_LIFETIMES.absoluteMs / DAY - 1) {
      app.clock.advance(DAY);
      days += 1;
      expect((await busy.get('/api/auth/user')).status).toBe(200);
    }
    app.clock.advance(DAY + HOUR);
    const res = await busy.get<{ message: string }>('/api/auth/user');
    expect(res.status).toBe(401);
    expect(await sessionExists(app, sidOf(busy))).toBe(false);
  });

  it('signs a user out everywhere: every browser, not other users', async () => {
    const laptop = await app.signIn('everywhere_member');
    const phone = await app.signIn('everywhere_member');
    const other = await app.signIn('bystander_member');
    const res = await laptop.post<{ ok: boolean; sessionsEnded: number }>('/api/auth/sign-out-everywhere');
    expect(res.status).toBe(200);
    expect(res.body.sessionsEnded).toBeGreaterThanOrEqual(2);
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE.replace('.', '\\.')}=;`));
    expect((await phone.get('/api/auth/user')).status).toBe(401);
    expect((await laptop.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/auth/user')).status).toBe(200);
    expect((await app.anonymous().post('/api/auth/sign-out-everywhere')).status).toBe(401);
  });

  it('exports signOutEverywhere for other code (account deletion)', async () => {
    const member = await app.signIn('deleted_later');
    const ended = await signOutEverywhere(app.server.ctx, member.user!.id);
    expect(ended).toBe(1);
    expect((await member.get('/api/auth/user')).status).toBe(401);
  });

  it('answers 401, never 500, to the session of a user that no longer exists', async () => {
    const ghost = await app.signIn('ghost_member');
    const id = ghost.user!.id;
    // The row goes as an operator's hand would remove it (its dependants first).
    for (const table of ['transactions', 'hourly_rewards', 'oauth_tokens', 'user_addresses'])
      await app.exec(sql`DELETE FROM ${sql.identifier(table)} WHERE user_id = ${id}`);
    await app.exec(sql`DELETE FROM users WHERE id = ${id}`);
    for (const [method, path] of [
      ['POST', '/api/hourly/claim'],
      ['POST', '/api/social/any/start'],
      ['POST', '/api/create-payment-intent'],
      ['GET', '/api/auth/user'],
    ] as const) {
      const res = await ghost.request(
        method,
        path,
        method === 'POST' ? { type: 'regular', packageType: 'starter' } : undefined,
      );
      expect(res.status, path).toBe(401);
    }
  });

  it('sends Cache-Control: no-store on every /api answer', async () => {
    const member = await app.signIn('cache_member');
    for (const path of ['/api/auth/user', '/api/servers', '/api/config', '/api/nothing-here']) {
      expect((await member.get(path)).headers.get('cache-control'), path).toBe('no-store');
    }
    expect((await app.anonymous().get('/api/auth/user')).headers.get('cache-control')).toBe('no-store');
  });
});

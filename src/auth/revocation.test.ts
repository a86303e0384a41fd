import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { HOUR } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { openEventStream, type EventStreamReader } from '../test/sse.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import type { EngineKind } from '../db/engine.ts';
import { SESSION_COOKIE } from './session.ts';

// Issue 27 item 1 (decision 039): revocation that nothing undoes. The attack: a live-event stream opened
// with a session that the policy refreshed as it opened (last used an hour or more before) held its
// req.session; after sign-out everywhere from another device its end saved that session again (SQLite
// upsert, Redis SET) and the other device was signed in again — in Redis outside the user's set, so
// every later sign-out everywhere missed it; after account deletion it still claimed rewards.
// Runs on SQLite always, on PostgreSQL when it answers, on Redis when REDIS_URL is set.

const stores: { name: string; env: Record<string, string>; engine: EngineKind }[] = [
  { name: 'sqlite', env: { REDIS_URL: '' }, engine: 'sqlite' },
  ...((await pgTestsEnabled())
    ? [{ name: 'postgresql', env: { REDIS_URL: '', SAME_ADDRESS_WINDOW_DAYS: '0' }, engine: 'pg' as const }]
    : []),
  ...(process.env.REDIS_URL ? [{ name: 'redis', env: {}, engine: 'sqlite' as const }] : []),
];

function sidOf(client: TestClient): string {
  return decodeURIComponent(client.cookies.get(SESSION_COOKIE)!).slice(2).split('.')[0]!;
}

async function storedSession(app: TestApp, sid: string): Promise<string | undefined> {
  const { redis, redisPrefix } = app.server.ctx.sessions;
  if (redis) return (await redis.get(`${redisPrefix}${sid}`)) ?? undefined;
  const [row] = await app.query<{ sess: string }>(sql`SELECT sess FROM sessions WHERE sid = ${sid}`);
  return row?.sess;
}

/** Puts a session back exactly as it was stored (what any late write of the old session amounts to). */
async function writeBack(app: TestApp, sid: string, sess: string): Promise<void> {
  const { redis, redisPrefix } = app.server.ctx.sessions;
  if (redis) await redis.set(`${redisPrefix}${sid}`, sess, { expiration: { type: 'EX', value: 3600 } });
  else
    await app.exec(
      sql`INSERT INTO sessions (sid, sess, expires_at) VALUES (${sid}, ${sess}, ${Date.now() + HOUR})`,
    );
}

/** Several heartbeats of the stream (50 ms each here): what a stream's end could have written is written. */
const heartbeats = () => new Promise((resolve) => setTimeout(resolve, 400));

describe.each(stores)('revocation with sessions in $name', ({ env, engine }) => {
  let app: TestApp;
  const streams: EventStreamReader[] = [];
  const open = async (client: TestClient) => {
    const stream = await openEventStream(client);
    streams.push(stream);
    expect(stream.response.status).toBe(200);
    await stream.until((s) => s.comments.includes('connected'), 5000, 'the stream to open');
    return stream;
  };
  beforeAll(async () => {
    app = await startTestApp({ env, engine, liveHeartbeatMs: 50 });
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await app.close();
  });

  it('sign-out everywhere ends a refreshed stream at once, and its end does not bring the session back', async () => {
    const laptop = await app.signIn('revoke_stream_member');
    const phone = await app.signIn('revoke_stream_member');
    const phoneSid = sidOf(phone);
    // An hour later the phone opens its stream: the session policy refreshes (modifies) its session.
    app.clock.advance(2 * HOUR);
    const stream = await open(phone);

    const res = await laptop.post('/api/auth/sign-out-everywhere');
    expect(res.status).toBe(200);
    // Published after the revocation: the revoked stream receives nothing of it.
    void app.server.ctx.events.publish(phone.user!.id, {
      type: 'campaign_completed',
      serverName: 'x',
      members: 1,
    });
    await stream.closedByServer();
    expect(stream.messages).toEqual([]);
    await heartbeats();

    expect(await storedSession(app, phoneSid)).toBeUndefined();
    expect((await phone.get('/api/auth/user')).status).toBe(401);
    expect((await phone.post('/api/hourly/claim', { type: 'regular' })).status).toBe(401);
  });

  it('a revoked session written back into the store is refused by both request paths', async () => {
    const member = await app.signIn('revoke_writeback_member');
    const sid = sidOf(member);
    const saved = (await storedSession(app, sid))!;
    expect(saved).toEqual(expect.any(String));
    expect(
      (await app.signIn('revoke_writeback_member').then((c) => c.post('/api/auth/sign-out-everywhere')))
        .status,
    ).toBe(200);
    await writeBack(app, sid, saved);
    // The fast path's routes (GET /api/servers, POST /api/hourly/claim) and the full stack's.
    expect((await member.get('/api/servers')).status).toBe(401);
    expect((await member.post('/api/hourly/claim', { type: 'regular' })).status).toBe(401);
    expect((await member.get('/api/auth/user')).status).toBe(401);
    // The refusal ended it in the store too.
    expect(await storedSession(app, sid)).toBeUndefined();
  });

  it('a sign-in right after sign-out everywhere (same clock instant) is valid, earlier sessions stay out', async () => {
    const old = await app.signIn('revoke_again_member');
    const ender = await app.signIn('revoke_again_member');
    expect((await ender.post('/api/auth/sign-out-everywhere')).status).toBe(200);
    const fresh = await app.signIn('revoke_again_member');
    expect((await fresh.get('/api/auth/user')).status).toBe(200);
    expect((await fresh.get('/api/servers')).status).toBe(200);
    expect((await old.get('/api/auth/user')).status).toBe(401);
  });

  it('account deletion: a stream opened on a refreshed session ends and cannot revive it', async () => {
    const laptop = await app.signIn('revoke_deleted_member');
    const phone = await app.signIn('revoke_deleted_member');
    const phoneSid = sidOf(phone);
    const saved = (await storedSession(app, phoneSid))!;
    app.clock.advance(2 * HOUR);
    const stream = await open(phone);
    const res = await laptop.request('DELETE', '/api/account', { confirmUsername: 'revoke_deleted_member' });
    expect(res.status).toBe(200);
    await stream.closedByServer();
    await heartbeats();
    expect(await storedSession(app, phoneSid)).toBeUndefined();
    expect((await phone.get('/api/account/export')).status).toBe(401);
    // Even written back, and even after the same Discord account signs up again.
    const again = await app.signIn('revoke_deleted_member');
    expect((await again.get('/api/auth/user')).status).toBe(200);
    await writeBack(app, phoneSid, saved);
    expect((await phone.get('/api/account/export')).status).toBe(401);
    expect((await phone.post('/api/hourly/claim', { type: 'regular' })).status).toBe(401);
  });

  it('signing out ends that session’s streams at once, not the other sessions’', async () => {
    const a = await app.signIn('revoke_logout_member');
    const b = await app.signIn('revoke_logout_member');
    const streamA = await open(a);
    const streamB = await open(b);
    expect((await a.post('/api/auth/logout')).status).toBe(200);
    await streamA.closedByServer();
    await heartbeats();
    expect((await b.get('/api/auth/user')).status).toBe(200);
    await streamB.until((s) => s.comments.filter((c) => c === 'ping').length >= 2, 5000, 'heartbeats');
  });

  it('the store never creates a signed-in session outside sign-in (set of a missing session writes nothing)', async () => {
    const store = app.server.sessions.store;
    const set = (sid: string, sess: object) =>
      new Promise<void>((resolve, reject) =>
        store.set(sid, sess as never, (err?: unknown) =>
          err ? reject(err instanceof Error ? err : new Error('session store failed')) : resolve(),
        ),
      );
    const cookie = { originalMaxAge: HOUR, expires: new Date(Date.now() + HOUR).toISOString(), path: '/' };
    await set('ghost-signed-in', { cookie, passport: { user: { id: 'u' } }, signedInAt: 1 });
    expect(await storedSession(app, 'ghost-signed-in')).toBeUndefined();
    // A session without a user (an OAuth2 sign-in under way) may be created.
    await set('pre-login', { cookie, oauth2: { state: 's' } });
    expect(await storedSession(app, 'pre-login')).toEqual(expect.any(String));
    // An existing signed-in session is updated in place.
    const member = await app.signIn('revoke_update_member');
    const sid = sidOf(member);
    const stored = JSON.parse((await storedSession(app, sid))!) as Record<string, unknown>;
    await set(sid, { ...stored, marker: 'updated' });
    expect(JSON.parse((await storedSession(app, sid))!)).toMatchObject({ marker: 'updated' });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, TestClient, signInThroughSimulator, type TestApp } from '../test/harness.ts';
import { SESSION_COOKIE } from './session.ts';
import type { ApiUser } from '../shared/api-types.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

function sessionId(client: TestClient): string | undefined {
  return client.cookies.get(SESSION_COOKIE);
}

describe('sign-in with Discord through the simulator', () => {
  it('answers 401 with a message when signed out', async () => {
    const res = await app.anonymous().get<{ message: string }>('/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Not signed in' });
  });

  it("answers the web app's optional probe with null when signed out, and the user when signed in", async () => {
    const probe = await app.anonymous().get<null>('/api/auth/user?optional=1');
    expect(probe.status).toBe(200);
    expect(probe.body).toBeNull();
    const client = await app.signIn('prober');
    const me = await client.get<ApiUser>('/api/auth/user?optional=1');
    expect(me.status).toBe(200);
    expect(me.body.discordUsername).toBe('prober');
  });

  it('redirects to the authorize URL with scopes, state and a PKCE challenge', async () => {
    const res = await app.anonymous().raw('/api/auth/discord');
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(`${app.sim.url}/oauth2/authorize`);
    expect(location.searchParams.get('scope')).toBe('identify guilds');
    expect(location.searchParams.get('state')).toMatch(/.{16,}/);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('redirect_uri')).toBe(`${app.url}/api/auth/discord/callback`);
  });

  it('creates the user on first sign-in with the 5.00 welcome bonus, exactly once', async () => {
    const first = await app.signIn('newcomer');
    expect(first.user).toMatchObject({ discordUsername: 'newcomer', coins: '5.00' });
    const again = await app.signIn('newcomer');
    expect(again.user?.id).toBe(first.user?.id);
    expect(again.user?.coins).toBe('5.00');
    const rows = await app.query<{ type: string; amount: number }>(
      sql`SELECT type, amount FROM transactions WHERE user_id = ${first.user!.id}`,
    );
    expect(rows).toEqual([{ type: 'welcome', amount: 500 }]);
    await app.checkLedger();
  });

  it('refreshes the username and avatar on later sign-ins', async () => {
    const client = await app.signIn('renamer');
    const simUser = app.sim.state.findUserByUsername('renamer')!;
    simUser.username = 'renamed';
    simUser.avatar = 'a1b2c3';
    const again = new TestClient(app.url);
    // Sign in again as the same Discord account (now called "renamed").
    await signInThroughSimulator(again, 'renamed');
    expect(again.user).toMatchObject({
      id: client.user!.id,
      discordUsername: 'renamed',
      discordAvatar: 'a1b2c3',
    });
    expect(again.user!.avatarUrl).toBe(
      `https://cdn.discordapp.com/avatars/${simUser.id}/a1b2c3.png?size=128`,
    );
    expect(await again.balanceCents()).toBe(500);
  });

  it('changes the session id at sign-in (no session fixation)', async () => {
    const client = new TestClient(app.url);
    await client.raw('/api/auth/discord');
    const before = sessionId(client);
    expect(before).toBeDefined();
    await signInThroughSimulator(client, 'fixation');
    const after = sessionId(client);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // The pre-login session id grants nothing.
    const attacker = new TestClient(app.url);
    attacker.cookies.set(SESSION_COOKIE, before!);
    expect((await attacker.get('/api/auth/user')).status).toBe(401);
  });

  it('sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const res = await app.anonymous().raw('/api/auth/discord');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('refuses a callback with a missing or wrong state and creates nothing', async () => {
    const countUsers = async () =>
      (await app.query<{ n: number }>(sql`SELECT count(*) AS n FROM users`))[0]!.n;
    const before = await countUsers();
    const client = new TestClient(app.url);
    const start = await client.raw('/api/auth/discord');
    const authorize = new URL(start.headers.get('location')!);
    authorize.searchParams.set('login_hint', 'stateless');
    const consent = await client.raw(authorize.toString());
    const callback = new URL(consent.headers.get('location')!);
    expect(callback.searchParams.get('code')).toBeTruthy();

    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    const forgedRes = await client.raw(forged.toString());
    expect(forgedRes.status).toBe(302);
    expect(forgedRes.headers.get('location')).toBe('/?login=failed');

    const missing = new URL(callback);
    missing.searchParams.delete('state');
    const missingRes = await client.raw(missing.toString());
    expect(missingRes.headers.get('location')).toBe('/?login=failed');

    // Another browser replaying the genuine callback has no matching state in its session.
    const other = new TestClient(app.url);
    await other.raw('/api/auth/discord');
    const replay = await other.raw(callback.toString());
    expect(replay.headers.get('location')).toBe('/?login=failed');

    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await other.get('/api/auth/user')).status).toBe(401);
    expect(await countUsers()).toBe(before);
  });

  it('treats a denied consent as a failed sign-in', async () => {
    const client = new TestClient(app.url);
    await client.raw('/api/auth/discord');
    const res = await client.raw('/api/auth/discord/callback?error=access_denied&state=x');
    expect(res.headers.get('location')).toBe('/?login=failed');
  });

  it('ends the session at logout', async () => {
    const client = await app.signIn('leaver');
    const sid = sessionId(client)!;
    const res = await client.post<{ ok: boolean }>('/api/auth/logout');
    expect(res.status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const replay = new TestClient(app.url);
    replay.cookies.set(SESSION_COOKIE, sid);
    expect((await replay.get('/api/auth/user')).status).toBe(401);
  });

  it('returns the wire shape of a user with money as a string', async () => {
    const client = await app.signIn('shape');
    const res = await client.get<ApiUser>('/api/auth/user');
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'avatarUrl',
        'coins',
        'createdAt',
        'discordAvatar',
        'discordId',
        'discordUsername',
        'id',
        'locale',
      ].sort(),
    );
    expect(res.body.coins).toBe('5.00');
    expect(new Date(res.body.createdAt).getTime()).toBe(app.clock.now());
  });
});

describe('http surface', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await app.anonymous().get<{ message: string }>('/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not found' });
  });

  it('turns malformed JSON into a 400 with a message, not a 500', async () => {
    const client = await app.signIn('badjson');
    const res = await client.request<{ message: string }>('POST', '/api/auth/logout', '{"oops', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Malformed JSON body');
  });

  it('refuses cross-site state-changing requests', async () => {
    const client = await app.signIn('csrf');
    const crossSite = await client.request('POST', '/api/auth/logout', undefined, {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const foreignOrigin = await client.request('POST', '/api/auth/logout', undefined, {
      origin: 'https://evil.example',
    });
    expect(foreignOrigin.status).toBe(403);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const sameOrigin = await client.request('POST', '/api/auth/logout', undefined, {
      origin: app.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('serves health, public config and security headers', async () => {
    const health = await app.anonymous().get('/api/health');
    expect(health.body).toEqual({ status: 'ok' });
    const config = await app.anonymous().get<Record<string, unknown>>('/api/config');
    expect(config.body).toMatchObject({
      productName: 'CoinSync',
      demoMode: false,
      stripePublishableKey: null,
    });
    expect(JSON.stringify(config.body)).not.toMatch(/secret|token/i);
    const csp = health.headers.get('content-security-policy')!;
    expect(csp).toContain('https://js.stripe.com');
    expect(csp).toContain('https://hooks.stripe.com');
    expect(csp).toContain('connect-src');
    expect(csp).toContain('https://cdn.discordapp.com');
  });
});

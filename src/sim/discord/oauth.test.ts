import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDiscordSimulator, type DiscordSimulator } from './index.ts';

let sim: DiscordSimulator & { url: string };
const clientId = '900000000000000001';
const clientSecret = 'sim-client-secret';
const redirectUri = 'http://app.test/api/auth/discord/callback';

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  sim.state.seedDemo();
});
afterAll(async () => {
  await sim.close();
});

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(`${sim.url}/oauth2/authorize`);
  const defaults = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'identify email guilds',
  };
  for (const [k, v] of Object.entries({ ...defaults, ...params })) url.searchParams.set(k, v);
  return url.toString();
}

async function authorize(params: Record<string, string>, form?: Record<string, string>): Promise<URL> {
  const res = form
    ? await fetch(authorizeUrl(params), {
        method: 'POST',
        body: new URLSearchParams(form),
        redirect: 'manual',
      })
    : await fetch(authorizeUrl(params), { redirect: 'manual' });
  expect(res.status).toBe(303);
  return new URL(res.headers.get('location') ?? '');
}

function token(
  body: Record<string, string>,
  init: { basic?: boolean; json?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  const fields = { ...body };
  if (init.basic)
    headers.authorization = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  else Object.assign(fields, { client_id: clientId, client_secret: clientSecret });
  if (init.json) {
    headers['content-type'] = 'application/json';
    return fetch(`${sim.url}/api/oauth2/token`, { method: 'POST', headers, body: JSON.stringify(fields) });
  }
  return fetch(`${sim.url}/api/v10/oauth2/token`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields),
  });
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('authorize page', () => {
  it('lists the users with a Continue button each', async () => {
    const res = await fetch(authorizeUrl({ state: 'abc' }));
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Continue as alex');
    expect(page).toContain('Continue as casey');
    expect(page).toContain('error=access_denied');
  });

  it('redirects with a code and the exact state after picking a user', async () => {
    const alex = sim.state.findUserByUsername('alex')!;
    const location = await authorize({ state: 'x y/z+1' }, { user_id: alex.id });
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get('state')).toBe('x y/z+1');
    expect(location.searchParams.get('code')).toMatch(/.{10,}/);
  });

  it('omits state when none was sent and creates typed-in users', async () => {
    const location = await authorize({}, { username: 'NewPerson' });
    expect(location.searchParams.has('state')).toBe(false);
    expect(sim.state.findUserByUsername('newperson')).toBeDefined();
  });

  it('shows errors for a bad client_id, response_type or scope', async () => {
    const cases: Record<string, string>[] = [
      { client_id: '1' },
      { response_type: 'token' },
      { scope: 'identify admin' },
      { scope: '' },
    ];
    for (const params of cases) {
      const res = await fetch(authorizeUrl(params));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });

  it('is also served under /api/oauth2/authorize (passport-discord default)', async () => {
    const res = await fetch(
      authorizeUrl({ login_hint: 'alex', state: 'q' }).replace('/oauth2/', '/api/oauth2/'),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location') ?? '').searchParams.get('state')).toBe('q');
  });

  it('rejects a bad typed username on the page', async () => {
    const res = await fetch(authorizeUrl({}), {
      method: 'POST',
      body: new URLSearchParams({ username: 'x' }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('username');
  });
});

describe('token exchange and users/@me', () => {
  it('runs the full PKCE flow with login_hint', async () => {
    const { verifier, challenge } = pkce();
    const location = await authorize({
      state: 's1',
      login_hint: 'hinted_user',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const code = location.searchParams.get('code')!;
    expect(location.searchParams.get('state')).toBe('s1');

    const res = await token(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier },
      { basic: true },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'identify email guilds' });

    const me = await fetch(`${sim.url}/api/v10/users/@me`, {
      headers: { authorization: `Bearer ${String(body.access_token)}` },
    });
    expect(await me.json()).toMatchObject({
      username: 'hinted_user',
      discriminator: '0',
      email: 'hinted_user@users.discord-sim.test',
      verified: true,
      global_name: null,
    });

    // single use
    const again = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });

    // refresh rotates tokens
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: String(body.refresh_token) });
    expect(refreshed.status).toBe(200);
    const r = (await refreshed.json()) as Record<string, unknown>;
    expect(r.access_token).not.toBe(body.access_token);
    const old = await token({ grant_type: 'refresh_token', refresh_token: String(body.refresh_token) });
    expect(old.status).toBe(400);
  });

  it('checks the PKCE verifier and the redirect_uri', async () => {
    const { challenge } = pkce();
    const params = { login_hint: 'alex', code_challenge: challenge, code_challenge_method: 'S256' };
    const code1 = (await authorize(params)).searchParams.get('code')!;
    const wrongVerifier = await token({
      grant_type: 'authorization_code',
      code: code1,
      redirect_uri: redirectUri,
      code_verifier: 'nope',
    });
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });

    const code2 = (await authorize({ login_hint: 'alex' })).searchParams.get('code')!;
    const wrongRedirect = await token({
      grant_type: 'authorization_code',
      code: code2,
      redirect_uri: 'http://evil.test/cb',
    });
    expect(wrongRedirect.status).toBe(400);
  });

  it('rejects JSON bodies, bad clients and unknown grants like Discord', async () => {
    const code = (await authorize({ login_hint: 'alex' })).searchParams.get('code')!;
    const json = await token(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      { json: true },
    );
    expect(json.status).toBe(400);

    const badClient = await fetch(`${sim.url}/api/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: clientId,
        client_secret: 'wrong',
      }),
    });
    expect(badClient.status).toBe(401);
    expect(await badClient.json()).toEqual({ error: 'invalid_client' });

    const unknown = await token({ grant_type: 'password' });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('answers 401 for bad tokens and lists guilds with the guilds scope', async () => {
    const bad = await fetch(`${sim.url}/api/users/@me`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: '401: Unauthorized', code: 0 });

    const code = (await authorize({ login_hint: 'alex' })).searchParams.get('code')!;
    const t = (await (
      await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri })
    ).json()) as { access_token: string };
    const guilds = (await (
      await fetch(`${sim.url}/api/v10/users/@me/guilds`, {
        headers: { authorization: `Bearer ${t.access_token}` },
      })
    ).json()) as { id: string; owner: boolean; permissions: string }[];
    expect(guilds.map((g) => g.id).sort()).toEqual([
      '200000000000000001',
      '200000000000000003',
      '200000000000000004',
    ]);
    expect(guilds.find((g) => g.id === '200000000000000001')).toMatchObject({ owner: true, features: [] });
    expect(typeof guilds[0]?.permissions).toBe('string');

    // identify-only token cannot list guilds
    const code2 = (await authorize({ login_hint: 'alex', scope: 'identify' })).searchParams.get('code')!;
    const t2 = (await (
      await token({ grant_type: 'authorization_code', code: code2, redirect_uri: redirectUri })
    ).json()) as { access_token: string };
    const denied = await fetch(`${sim.url}/api/v10/users/@me/guilds`, {
      headers: { authorization: `Bearer ${t2.access_token}` },
    });
    expect(denied.status).toBe(401);
    const me = (await (
      await fetch(`${sim.url}/api/v10/users/@me`, { headers: { authorization: `Bearer ${t2.access_token}` } })
    ).json()) as Record<string, unknown>;
    expect(me.email).toBeUndefined();
  });
});

describe('bot authorization flow', () => {
  it('adds the bot to the chosen guild and redirects with guild_id', async () => {
    const sam = sim.state.findUserByUsername('sam')!;
    const params = {
      scope: 'bot',
      permissions: '8',
      guild_id: '200000000000000005',
      disable_guild_select: 'true',
      state: 'b1',
    };
    const pageRes = await fetch(
      authorizeUrl({ ...params, response_type: '' }).replace('response_type=&', ''),
    );
    expect(pageRes.status).toBe(200);
    expect(await pageRes.text()).toContain('Indie Devs Hub');

    const notOwner = await fetch(authorizeUrl(params), {
      method: 'POST',
      body: new URLSearchParams({
        user_id: sim.state.findUserByUsername('alex')!.id,
        guild_id: '200000000000000005',
      }),
    });
    expect(notOwner.status).toBe(400);

    const location = await authorize(params, { user_id: sam.id, guild_id: '200000000000000005' });
    expect(location.searchParams.get('guild_id')).toBe('200000000000000005');
    expect(location.searchParams.get('state')).toBe('b1');
    expect(sim.state.requireGuild('200000000000000005').botJoinedAt).not.toBeNull();
  });
});

describe('signed-in browser', () => {
  it('remembers who signed in, so invite pages join as that user by default', async () => {
    const res = await fetch(authorizeUrl({ login_hint: 'casey', state: 's' }), { redirect: 'manual' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('discord_sim_user='));
    expect(cookie).toMatch(/HttpOnly/i);
    const casey = sim.state.findUserByUsername('casey')!;
    const invite = [...sim.state.invites.values()][0]!;
    const page = await (
      await fetch(`${sim.url}/invite/${invite.code}`, { headers: { cookie: cookie!.split(';')[0]! } })
    ).text();
    expect(page).toMatch(new RegExp(`<option value="${casey.id}" selected`));
    const anonymous = await (await fetch(`${sim.url}/invite/${invite.code}`)).text();
    expect(anonymous).not.toMatch(/selected/);
  });
});

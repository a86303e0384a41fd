import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DAY, HOUR } from '../clock.ts';
import { startTestApp, type TestApp, type TestClient } from '../test/harness.ts';
import { insertCampaign, readCampaign } from '../test/factories.ts';
import {
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  MAX_ACCESS_TOKENS_PER_USER,
  missingScopeMessage,
  type AccessTokenScope,
  type ApiAccessToken,
  type CreatedAccessToken,
} from '../shared/access-tokens.ts';
import type { ApiUser } from '../shared/api-types.ts';
import { API_OPERATIONS } from '../public-api/operations.ts';

// Personal access tokens (decision 053): hashed at rest, shown once, scoped, revoked at once, limited
// per token, never acting for anyone but their creator, refused where only a browser session may act.

let app: TestApp;
let counter = 0;
const nextName = () => `tokener${++counter}`;

beforeAll(async () => {
  app = await startTestApp();
});
afterEach(() => app.checkLedger());
afterAll(async () => {
  await app.close();
});

async function createToken(
  client: TestClient,
  scopes: AccessTokenScope[],
  expiresInDays: number | null = 30,
): Promise<CreatedAccessToken> {
  const res = await client.post<CreatedAccessToken>('/api/account/tokens', {
    name: 'my script',
    scopes,
    expiresInDays,
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** A request carrying only the token (no cookies), as a script sends it. */
function withToken(
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return app.anonymous().request(method, path, body, { authorization: `Bearer ${token}`, ...headers });
}

describe('creating and listing tokens', () => {
  it('shows the token once, prefixed, and stores only its hash', async () => {
    const owner = await app.signIn(nextName());
    const created = await createToken(owner, ['read']);
    expect(created.token).toMatch(/^cs_pat_[A-Za-z0-9_-]{43}$/);
    expect(created.hint).toBe(created.token.slice(-4));
    expect(created.scopes).toEqual(['read']);

    const list = await owner.get<ApiAccessToken[]>('/api/account/tokens');
    expect(list.status).toBe(200);
    expect(list.body.map((t) => t.id)).toEqual([created.id]);
    expect(JSON.stringify(list.body)).not.toContain(created.token);

    const rows = await app.query<{ tokenHash: string }>(
      sql`SELECT token_hash AS "tokenHash" FROM access_tokens WHERE id = ${created.id}`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.tokenHash).not.toContain(created.token.slice(7, 20));
  });

  it('refuses bad input with a 400 and creates nothing', async () => {
    const owner = await app.signIn(nextName());
    for (const body of [
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['transfer'] },
      { name: '   ', scopes: ['read'] },
      { name: 'x', scopes: ['read'], expiresInDays: 3 },
      'not json',
    ]) {
      const res = await owner.post<{ message: string }>('/api/account/tokens', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
    expect((await owner.get<ApiAccessToken[]>('/api/account/tokens')).body).toEqual([]);
  });

  it(`stops at ${MAX_ACCESS_TOKENS_PER_USER} tokens per user`, async () => {
    const owner = await app.signIn(nextName());
    for (let i = 0; i < MAX_ACCESS_TOKENS_PER_USER; i += 1) await createToken(owner, ['read']);
    const res = await owner.post('/api/account/tokens', { name: 'one more', scopes: ['read'] });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: ACCESS_TOKEN_MESSAGES.tooMany });
  });
});

describe('what a token may do', () => {
  it('reads with the read scope and acts as its creator', async () => {
    const owner = await app.signIn(nextName());
    const { token } = await createToken(owner, ['read']);
    const me = await withToken(token, 'GET', '/api/auth/user');
    expect(me.status).toBe(200);
    expect((me.body as ApiUser).id).toBe(owner.user!.id);
    expect(me.headers.get('set-cookie')).toBeNull();
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(200);
  });

  it('claims only with the rewards:claim scope', async () => {
    const owner = await app.signIn(nextName());
    const before = await owner.balanceCents();
    const readOnly = await createToken(owner, ['read']);
    const refused = await withToken(readOnly.token, 'POST', '/api/hourly/claim', { type: 'regular' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: missingScopeMessage('rewards:claim') });
    expect(await owner.balanceCents()).toBe(before);

    const claimer = await createToken(owner, ['rewards:claim']);
    const claimed = await withToken(claimer.token, 'POST', '/api/hourly/claim', { type: 'regular' });
    expect(claimed.status).toBe(200);
    expect(await owner.balanceCents()).toBe(before + 100);
    // Reading needs its own scope.
    expect((await withToken(claimer.token, 'GET', '/api/hourly')).status).toBe(403);
  });

  it('is refused on every session-only route, with every scope, and changes nothing', async () => {
    const owner = await app.signIn(nextName());
    const { token, id } = await createToken(owner, ['read', 'rewards:claim', 'campaigns:manage']);
    const attempts: [string, string, unknown?][] = [
      ['POST', '/api/create-payment-intent', { packageType: 'starter' }],
      ['POST', '/api/payments/pi_123/sync'],
      ['DELETE', '/api/account', { confirmUsername: owner.user!.discordUsername }],
      ['GET', '/api/account/export'],
      ['GET', '/api/account/tokens'],
      ['POST', '/api/account/tokens', { name: 'child', scopes: ['read'] }],
      ['DELETE', `/api/account/tokens/${id}`],
      ['POST', '/api/auth/sign-out-everywhere'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/events'],
      ['GET', '/api/no-such-route'],
    ];
    for (const [method, path, body] of attempts) {
      const res = await withToken(token, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ message: ACCESS_TOKEN_MESSAGES.routeRefused });
    }
    // The account, its session and the token are all still there.
    expect((await owner.get<ApiUser>('/api/auth/user')).status).toBe(200);
    expect((await owner.get<ApiAccessToken[]>('/api/account/tokens')).body.map((t) => t.id)).toEqual([id]);
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(200);
  });

  it('offers no scope that buys or moves coins, deletes the account or manages tokens', () => {
    const sessionOnly = ['/account', '/account/export', '/account/tokens', '/account/tokens/:id'];
    sessionOnly.push('/create-payment-intent', '/payments/:paymentIntentId/sync', '/auth/logout');
    sessionOnly.push('/auth/sign-out-everywhere', '/events');
    for (const op of API_OPERATIONS) {
      if (sessionOnly.includes(op.path)) expect(op.auth, `${op.method} ${op.path}`).toBe('session');
    }
  });

  it("never acts for another user: another user's campaign is not found, ids in the request change nothing", async () => {
    const owner = await app.signIn(nextName());
    const other = await app.signIn(nextName());
    const campaign = await insertCampaign(app.server.ctx.store, { ownerId: other.user!.id });
    const { token } = await createToken(owner, ['read', 'campaigns:manage']);
    const cancel = await withToken(token, 'DELETE', `/api/campaigns/${campaign.id}`);
    expect(cancel.status).toBe(404);
    expect((await readCampaign(app.server.ctx.store, campaign.id))?.canceledAt).toBeNull();

    const me = await withToken(token, 'GET', `/api/auth/user?userId=${other.user!.id}`, undefined, {
      'x-user-id': other.user!.id,
    });
    expect((me.body as ApiUser).id).toBe(owner.user!.id);
  });

  it("uses the token alone: another user's cookie beside it is ignored, a bad token is not rescued by one", async () => {
    const owner = await app.signIn(nextName());
    const other = await app.signIn(nextName());
    const { token } = await createToken(owner, ['read']);
    const mixed = await app.anonymous().request('GET', '/api/auth/user', undefined, {
      authorization: `Bearer ${token}`,
      cookie: other.cookieHeader,
    });
    expect((mixed.body as ApiUser).id).toBe(owner.user!.id);
    const forged = await app.anonymous().request('GET', '/api/auth/user', undefined, {
      authorization: 'Bearer cs_pat_not-a-real-token',
      cookie: other.cookieHeader,
    });
    expect(forged.status).toBe(401);
    // The fast-path route too: a read-only token beside the owner's own cookie cannot claim.
    const claim = await app.anonymous().request(
      'POST',
      '/api/hourly/claim',
      { type: 'regular' },
      {
        authorization: `Bearer ${token}`,
        cookie: owner.cookieHeader,
      },
    );
    expect(claim.status).toBe(403);
  });

  it('needs no same-origin check: a cross-site request with a token carries no ambient credentials', async () => {
    const owner = await app.signIn(nextName());
    const { token } = await createToken(owner, ['rewards:claim']);
    const res = await withToken(
      token,
      'POST',
      '/api/hourly/claim',
      { type: 'bonus' },
      { origin: 'https://elsewhere.example' },
    );
    expect(res.status).toBe(200);
  });
});

describe('revocation, expiry and limits', () => {
  it('refuses a revoked token on the very next request', async () => {
    const owner = await app.signIn(nextName());
    const { token, id } = await createToken(owner, ['read']);
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(200);
    expect((await owner.delete(`/api/account/tokens/${id}`)).status).toBe(200);
    const after = await withToken(token, 'GET', '/api/hourly');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: ACCESS_TOKEN_MESSAGES.invalid });
    expect((await owner.get<ApiAccessToken[]>('/api/account/tokens')).body).toEqual([]);
    // Revoking again, or someone else's token, is a 404.
    expect((await owner.delete(`/api/account/tokens/${id}`)).status).toBe(404);
    const other = await app.signIn(nextName());
    const theirs = await createToken(other, ['read']);
    expect((await owner.delete(`/api/account/tokens/${theirs.id}`)).status).toBe(404);
    expect((await withToken(theirs.token, 'GET', '/api/hourly')).status).toBe(200);
  });

  it('refuses an expired token', async () => {
    const owner = await app.signIn(nextName());
    const { token } = await createToken(owner, ['read'], 7);
    app.clock.advance(7 * DAY - HOUR);
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(200);
    app.clock.advance(HOUR);
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(401);
  });

  it('refuses malformed and unknown tokens alike', async () => {
    for (const header of ['Bearer', 'Bearer cs_pat_short', `Bearer cs_pat_${'a'.repeat(43)}`, 'Basic abc']) {
      const res = await app.anonymous().request('GET', '/api/hourly', undefined, { authorization: header });
      expect(res.status, header).toBe(401);
    }
  });

  it(`limits each token to ${ACCESS_TOKEN_REQUESTS_PER_MINUTE} requests a minute, on its own`, async () => {
    const owner = await app.signIn(nextName());
    const busy = await createToken(owner, ['read']);
    const quiet = await createToken(owner, ['read']);
    for (let i = 0; i < ACCESS_TOKEN_REQUESTS_PER_MINUTE; i += 1) {
      expect((await withToken(busy.token, 'GET', '/api/hourly')).status).toBe(200);
    }
    const limited = await withToken(busy.token, 'GET', '/api/hourly');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: ACCESS_TOKEN_MESSAGES.rateLimited });
    expect((await withToken(quiet.token, 'GET', '/api/hourly')).status).toBe(200);
    expect((await owner.get('/api/hourly')).status).toBe(200);
  });

  it('ends with the account: deleting it deletes its tokens', async () => {
    const owner = await app.signIn(nextName());
    const { token } = await createToken(owner, ['read']);
    const deleted = await owner.request('DELETE', '/api/account', {
      confirmUsername: owner.user!.discordUsername,
    });
    expect(deleted.status).toBe(200);
    expect((await withToken(token, 'GET', '/api/hourly')).status).toBe(401);
    const rows = await app.query(sql`SELECT id FROM access_tokens WHERE user_id = ${owner.user!.id}`);
    expect(rows).toEqual([]);
  });
});

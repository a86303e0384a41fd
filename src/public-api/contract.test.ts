import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { startTestApp, type TestApp, type TestClient, type TestResponse } from '../test/harness.ts';
import { createGuildWithInvite, giveCoins } from '../campaigns/test-support.ts';
import { addSocialTask } from '../social/manage-social-tasks.ts';
import type { ApiServer } from '../shared/api-types.ts';
import type { CreatedAccessToken } from '../shared/access-tokens.ts';
import { API_OPERATIONS, findOperation, openApiPath } from './operations.ts';

// The contract test (decision 053): the API's real answers, in the ways the suites drive it (signed in,
// signed out, with a token, bad input, refusals), each validated against the served OpenAPI document —
// the status must be documented for the route and the body must match its schema. Every route in the
// table is driven, and every route the app serves is in the table.

type Json = Record<string, unknown>;
interface DocResponse {
  content?: Record<string, { schema?: Json }>;
}

let app: TestApp;
let document: {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, DocResponse> }>>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();
/** operationId → statuses seen. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  app = await startTestApp();
  const res = await app.anonymous().get<typeof document>('/api/openapi.json');
  expect(res.status).toBe(200);
  document = res.body;
});
afterAll(() => app.close());

/** Validates one answer against the document and records it. */
function conforms(method: string, path: string, res: TestResponse): void {
  const apiPath = path.replace(/^\/api/, '').split('?')[0] ?? '';
  const op = findOperation(method, apiPath);
  expect(op, `${method} ${path} is not in the route table`).toBeDefined();
  if (!op) return;
  const documented = document.paths[openApiPath(op.path)]?.[op.method]?.responses ?? {};
  const where = `${method} ${path} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}`;
  const response = documented[String(res.status)];
  expect(response, `undocumented status: ${where}`).toBeDefined();
  const statuses = seen.get(op.operationId) ?? new Set<number>();
  statuses.add(res.status);
  seen.set(op.operationId, statuses);
  const type = res.headers.get('content-type') ?? '';
  const [declared] = Object.keys(response?.content ?? {});
  if (declared === undefined) return;
  expect(type.startsWith(declared), `content type ${type}: ${where}`).toBe(true);
  const schema = response?.content?.[declared]?.schema;
  if (declared !== 'application/json' || !schema) return;
  const key = `${op.operationId} ${res.status}`;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = ajv.compile(schema)));
  const valid = validate(res.body);
  expect(valid, `${where}\n${ajv.errorsText(validate.errors)}`).toBe(true);
}

async function call<T = unknown>(
  client: TestClient,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) {
  const res = await client.request<T>(method, path, body, headers);
  conforms(method, path, res);
  return res;
}

describe('every answer matches the OpenAPI document', () => {
  it('is an OpenAPI 3.1 document of every route in the table', () => {
    expect(document.openapi).toBe('3.1.0');
    for (const op of API_OPERATIONS) expect(document.paths[openApiPath(op.path)]?.[op.method]).toBeDefined();
  });

  it('lists every route the app serves under /api', () => {
    type Layer = {
      route?: { path: string; methods: Record<string, boolean> };
      handle?: { stack?: Layer[] };
      matchers?: ((path: string) => unknown)[];
    };
    const served: string[] = [];
    const walk = (stack: Layer[]) => {
      for (const layer of stack) {
        if (layer.route)
          for (const m of Object.keys(layer.route.methods)) served.push(`${m} ${layer.route.path}`);
        else if (layer.handle?.stack) walk(layer.handle.stack);
      }
    };
    // The router mounted at /api (the app's other routes serve the web app's pages and files).
    const top = (app.server.app as unknown as { router: { stack: Layer[] } }).router.stack;
    const mountedAt = (layer: Layer, path: string) => Boolean(layer.matchers?.some((match) => match(path)));
    const apiRouters = top.filter((l) => l.handle?.stack && mountedAt(l, '/api/x') && !mountedAt(l, '/x'));
    expect(apiRouters).toHaveLength(1);
    walk(apiRouters[0]?.handle?.stack ?? []);
    const listed = API_OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(served.length).toBeGreaterThan(30);
    expect(served.filter((r) => !listed.includes(r))).toEqual([]);
    expect(listed.filter((r) => !served.includes(r))).toEqual([]);
  });

  it('holds for signed-out requests and the service routes', async () => {
    const anon = app.anonymous();
    for (const path of ['/api/health', '/api/ready', '/api/config', '/api/openapi.json', '/api/docs']) {
      await call(anon, 'GET', path);
    }
    await call(anon, 'GET', '/api/auth/discord');
    await call(anon, 'GET', '/api/auth/discord/callback?error=access_denied');
    await call(anon, 'GET', '/api/auth/user?optional=1');
    await call(anon, 'POST', '/api/stripe/webhook', '{}', { 'stripe-signature': 't=1,v1=bad' });
    for (const op of API_OPERATIONS.filter((o) => o.auth !== 'public')) {
      const res = await call(anon, op.method.toUpperCase(), `/api${op.path.replace(/:\w+/g, 'x1')}`);
      // Signing out without a session is already done.
      expect(res.status, `${op.method} ${op.path}`).toBe(op.operationId === 'signOut' ? 200 : 401);
    }
  });

  it('holds for an owner running campaigns', async () => {
    const owner = await app.signIn('contract_owner');
    await giveCoins(app, owner, 500);
    await call(owner, 'GET', '/api/auth/user');
    await call(owner, 'GET', '/api/guilds/manageable');
    await call(owner, 'GET', '/api/bot/invite');
    await call(owner, 'GET', '/api/bot/invite?guildId=nope');

    const { link } = createGuildWithInvite(app, owner);
    const regular = await call<ApiServer>(owner, 'POST', '/api/servers', {
      name: 'Contract Guild',
      inviteLink: link,
      coinReward: '10',
    });
    expect(regular.status).toBe(201);
    const botless = createGuildWithInvite(app, owner, { botMember: false });
    const missing = await call(owner, 'POST', '/api/servers', {
      name: 'No Bot Yet',
      inviteLink: botless.link,
      coinReward: '5',
    });
    expect(missing.body).toMatchObject({ botMissing: true });
    await call(owner, 'POST', '/api/servers', { name: 'x', inviteLink: 'nope' });
    const nobot = await call<ApiServer>(owner, 'POST', '/api/servers/no-bot', {
      name: 'Quiet Guild',
      inviteLink: botless.link,
      memberCount: '5',
    });
    expect(nobot.status).toBe(201);

    const featured = createGuildWithInvite(app, owner);
    const intent = await call<ApiServer>(owner, 'POST', '/api/servers', {
      name: 'Star Guild',
      inviteLink: featured.link,
      isFeaturedIntent: true,
    });
    expect((await call(owner, 'POST', `/api/servers/${intent.body.id}/promote`)).status).toBe(200);
    await call(owner, 'POST', `/api/servers/${intent.body.id}/promote`);
    expect(
      (await call(owner, 'POST', `/api/campaigns/${regular.body.id}/top-up`, { members: '3' })).status,
    ).toBe(200);
    await call(owner, 'POST', `/api/campaigns/${regular.body.id}/top-up`, { members: 'many' });
    await call(owner, 'POST', `/api/campaigns/${regular.body.id}/invite`, { inviteLink: link });
    await call(owner, 'POST', `/api/campaigns/${regular.body.id}/invite`, {
      inviteLink: 'https://discord.gg/unknown1',
    });
    const notifications = `/api/campaigns/${regular.body.id}/notifications`;
    expect((await call(owner, 'GET', notifications)).status).toBe(200);
    const hook = app.sim.state.channelWebhooks.create({ name: 'contract-alerts' });
    const saved = await call(owner, 'PUT', notifications, {
      discordWebhookUrl: `https://discord.com/api/webhooks/${hook.id}/${hook.token}`,
      events: ['join.verified'],
    });
    expect(saved.status).toBe(200);
    expect((await call(owner, 'PUT', notifications, { events: ['nope'] })).status).toBe(400);
    expect((await call(owner, 'POST', `${notifications}/test`)).status).toBe(202);
    expect((await call(owner, 'GET', `${notifications}/deliveries`)).status).toBe(200);
    await call(owner, 'GET', '/api/campaigns/quality');
    await call(owner, 'GET', `/api/campaigns/${regular.body.id}/quality`);
    await call(owner, 'GET', `/api/campaigns/${regular.body.id}/quality.csv`);
    await call(owner, 'GET', '/api/campaigns/no-such-campaign/quality');
    const pickable = createGuildWithInvite(app, owner);
    await call(owner, 'POST', `/api/guilds/${pickable.guild.id}/invite`);
    await call(owner, 'POST', `/api/guilds/${botless.guild.id}/invite`);
    await call(owner, 'POST', '/api/guilds/not-a-guild/invite');
    await call(owner, 'GET', '/api/servers/mine');
    await call(owner, 'GET', '/api/campaigns');
    await call(owner, 'GET', '/api/transactions');
    await call(owner, 'GET', '/api/transactions?page=1&pageSize=5&filter=campaigns');
    await call(owner, 'GET', '/api/transactions?page=0');
    await call(owner, 'GET', '/api/transactions/earnings?tzOffset=-60');
    await call(owner, 'GET', '/api/transactions/summary');
    expect((await call(owner, 'DELETE', `/api/campaigns/${regular.body.id}`)).status).toBe(200);
    await call(owner, 'DELETE', '/api/campaigns/no-such-campaign');
  });

  it('holds for a member joining, claiming and reading', async () => {
    const owner = await app.signIn('contract_owner2');
    await giveCoins(app, owner, 100);
    const member = await app.signIn('contract_member');
    const guild = createGuildWithInvite(app, owner, { botMember: false });
    const nobot = await call<ApiServer>(owner, 'POST', '/api/servers/no-bot', {
      name: 'Claim Guild',
      inviteLink: guild.link,
      memberCount: 3,
    });
    const regularGuild = createGuildWithInvite(app, owner);
    const regular = await call<ApiServer>(owner, 'POST', '/api/servers', {
      name: 'Join Guild',
      inviteLink: regularGuild.link,
      coinReward: 5,
    });

    await call(member, 'GET', '/api/servers');
    await call(member, 'GET', '/api/servers?limit=1&q=Guild');
    await call(member, 'GET', '/api/servers?limit=0');
    await call(member, 'GET', '/api/servers/featured');
    expect((await call(member, 'POST', `/api/servers/${regular.body.id}/join`)).status).toBe(200);
    expect((await call(member, 'POST', `/api/servers/${nobot.body.id}/join`)).status).toBe(200);
    await call(member, 'POST', '/api/servers/no-such-campaign/join');
    app.sim.state.addMember(guild.guild.id, member.user!.discordId);
    await call(member, 'POST', `/api/servers/${nobot.body.id}/claim-nobot`);
    app.clock.advance(10_000);
    expect((await call(member, 'POST', `/api/servers/${nobot.body.id}/claim-nobot`)).status).toBe(200);
    await call(member, 'POST', `/api/servers/${nobot.body.id}/claim-nobot`);
    await call(member, 'GET', '/api/joins/pace');
    await call(member, 'GET', '/api/joins');
    await call(member, 'POST', '/api/joins/check');

    await call(member, 'GET', '/api/hourly');
    expect((await call(member, 'POST', '/api/hourly/claim', { type: 'regular' })).status).toBe(200);
    await call(member, 'POST', '/api/hourly/claim', { type: 'regular' });
    await call(member, 'POST', '/api/hourly/claim', { type: 'weekly' });
    const task = await addSocialTask(
      app.server.ctx.store,
      { platform: 'tiktok', title: 'Follow us', url: 'https://www.tiktok.com/@coinsync', coins: 200 },
      app.clock.now(),
    );
    await call(member, 'GET', '/api/social');
    await call(member, 'POST', `/api/social/${task.id}/complete`);
    expect((await call(member, 'POST', `/api/social/${task.id}/start`)).status).toBe(200);
    app.clock.advance(60_000);
    expect((await call(member, 'POST', `/api/social/${task.id}/complete`)).status).toBe(200);
    await call(member, 'POST', '/api/social/no-such-task/start');
  });

  it('holds for payments, the account and its tokens', async () => {
    const user = await app.signIn('contract_account');
    await call(user, 'POST', '/api/create-payment-intent', { packageType: 'starter' });
    await call(user, 'POST', '/api/create-payment-intent', { packageType: 'nope' });
    await call(user, 'POST', '/api/payments/pi_123/sync');
    await call(user, 'POST', '/api/payments/bad/sync');
    await call(user, 'GET', '/api/account/export');
    expect((await call(user, 'PUT', '/api/account/locale', { locale: 'de' })).status).toBe(200);
    expect((await call(user, 'PUT', '/api/account/locale', { locale: 'klingon' })).status).toBe(400);
    await call(user, 'PUT', '/api/account/locale', { locale: 'en' });
    expect((await call(user, 'GET', '/api/account/reminders')).status).toBe(200);
    const reminders = { kinds: { daily: true }, timeZone: 'Europe/Istanbul' };
    expect((await call(user, 'PUT', '/api/account/reminders', reminders)).status).toBe(200);
    expect((await call(user, 'PUT', '/api/account/reminders', { timeZone: 'Mars/Base' })).status).toBe(400);
    const created = await call<CreatedAccessToken>(user, 'POST', '/api/account/tokens', {
      name: 'CI',
      scopes: ['read', 'rewards:claim'],
    });
    expect(created.status).toBe(201);
    await call(user, 'POST', '/api/account/tokens', { name: 'CI', scopes: [] });
    await call(user, 'GET', '/api/account/tokens');

    const token = { authorization: `Bearer ${created.body.token}` };
    const script = app.anonymous();
    await call(script, 'GET', '/api/auth/user', undefined, token);
    await call(script, 'GET', '/api/transactions/summary', undefined, token);
    await call(script, 'POST', '/api/hourly/claim', { type: 'bonus' }, token);
    await call(script, 'POST', '/api/servers', { name: 'Nope', inviteLink: 'https://discord.gg/x' }, token);
    await call(script, 'GET', '/api/account/tokens', undefined, token);
    await call(script, 'GET', '/api/hourly', undefined, { authorization: 'Bearer cs_pat_wrong' });

    expect((await call(user, 'DELETE', `/api/account/tokens/${created.body.id}`)).status).toBe(200);
    await call(user, 'DELETE', `/api/account/tokens/${created.body.id}`);

    // The live-event stream: headers only (it never ends by itself).
    const abort = new AbortController();
    const stream = await user.raw('/api/events', { signal: abort.signal });
    conforms('GET', '/api/events', { status: stream.status, body: undefined, headers: stream.headers });
    abort.abort();

    const leaver = await app.signIn('contract_leaver');
    await call(leaver, 'POST', '/api/auth/sign-out-everywhere');
    const other = await app.signIn('contract_other');
    await call(other, 'POST', '/api/auth/logout');
    const deleter = await app.signIn('contract_deleter');
    await call(deleter, 'DELETE', '/api/account', { confirmUsername: 'not me' });
    expect(
      (await call(deleter, 'DELETE', '/api/account', { confirmUsername: 'contract_deleter' })).status,
    ).toBe(200);
  });

  it('drove every route in the table, all but the payment ones to a success', () => {
    const missing = API_OPERATIONS.filter((op) => !seen.has(op.operationId)).map((op) => op.operationId);
    expect(missing).toEqual([]);
    // Payments need Stripe (src/payments/*.test.ts drive them against the fake); the webhook needs its signature.
    const noSuccessHere = ['createPaymentIntent', 'syncPayment', 'receiveStripeWebhook'];
    const neverOk = API_OPERATIONS.filter(
      (op) =>
        !noSuccessHere.includes(op.operationId) &&
        ![...(seen.get(op.operationId) ?? [])].some((s) => s < 400),
    ).map((op) => op.operationId);
    expect(neverOk).toEqual([]);
  });
});

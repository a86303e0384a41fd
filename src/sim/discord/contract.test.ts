import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIM_BOT_TOKEN, startDiscordSimulator, type DiscordSimulator } from './index.ts';
import { GUILD_MEMBERS_INTENT } from './state.ts';
import { commandDefinitions } from '../../bot/commands/index.ts';

// Contract test: the simulator's REST answers, for every route the product calls, validated against
// Discord's own OpenAPI document.
//
// Source of the pinned copy: repository discord/discord-api-spec, file specs/openapi.json, commit
// 74fda0fad044407ea280043a03ffc9bc64c4e49e (2026-07-18). Only the operations the product uses and the
// components they reference are kept, in contract/discord-openapi.subset.json, written by
// `node --import tsx scripts/discord-openapi-subset.ts <openapi.json> <commit>` (see decision 019).

interface OpenApiSubset {
  'x-source': { repository: string; path: string; commit: string };
  paths: Record<string, Record<string, { responses: Record<string, Response200 | { $ref: string }> }>>;
  components: { schemas: Record<string, unknown>; headers: Record<string, { schema: { type: string } }> };
}
interface Response200 {
  headers?: Record<string, { $ref: string }>;
  content?: { 'application/json': { schema: unknown } };
}

const subset = JSON.parse(
  readFileSync(new URL('./contract/discord-openapi.subset.json', import.meta.url), 'utf8'),
) as OpenApiSubset;

const SNOWFLAKE = /^(0|[1-9][0-9]{0,19})$/;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
ajv.addFormat('snowflake', SNOWFLAKE);
ajv.addFormat('date-time', { validate: (s: string) => !Number.isNaN(Date.parse(s)) });
ajv.addFormat('uri', { validate: (s: string) => URL.canParse(s) });
ajv.addFormat('nonce', true);
for (const f of ['int32', 'int64', 'double']) ajv.addFormat(f, { type: 'number', validate: () => true });
ajv.addSchema({ $id: 'discord', components: subset.components, paths: subset.paths });

const pointer = (...parts: string[]) =>
  `#/${parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

const validators = new Map<string, ValidateFunction>();
function schemaFor(ref: string): ValidateFunction {
  let v = validators.get(ref);
  if (!v) {
    v = ajv.compile({ $ref: `discord${ref}` });
    validators.set(ref, v);
  }
  return v;
}

/** Which product call maps to which documented operation ("METHOD /path"); null = not in the document. */
const PRODUCT_ROUTES: Record<string, string | null> = {
  user: 'GET /users/@me',
  userGuilds: 'GET /users/@me/guilds',
  invite: 'GET /invites/{code}',
  guild: 'GET /guilds/{guild_id}',
  guildMembers: 'GET /guilds/{guild_id}/members',
  guildMember: 'GET /guilds/{guild_id}/members/{user_id}',
  guildAuditLog: 'GET /guilds/{guild_id}/audit-logs',
  guildChannels: 'GET /guilds/{guild_id}/channels',
  channelInvites: 'POST /channels/{channel_id}/invites',
  userChannels: 'POST /users/@me/channels',
  channelMessages: 'POST /channels/{channel_id}/messages',
  // The OAuth2 token endpoint is not part of the OpenAPI document (it is form-encoded, RFC 6749);
  // src/sim/discord/oauth.test.ts holds the simulator to RFC 6749's shapes instead.
  oauth2TokenExchange: null,
};
/** discord.js itself calls GET /gateway/bot for `shards: 'auto'` (src/bot/bot.ts). */
const DISCORD_JS_ROUTES = ['GET /gateway/bot'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

let sim: DiscordSimulator & { url: string };
const ids = { guild: '', member: '', owner: '', channel: '', invite: '' };
let bearer = '';
const checked = new Set<string>();

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  // These tests use member events and lists: the application has the Server Members intent enabled.
  sim.state.gateway.allowedPrivilegedIntents = GUILD_MEMBERS_INTENT;
  const s = sim.state;
  const owner = s.createUser({
    username: 'contract_owner',
    globalName: 'Contract Owner',
    avatar: 'a_0123456789abcdef0123456789abcdef',
  });
  const member = s.createUser({ username: 'contract_member' });
  const kicked = s.createUser({ username: 'contract_kicked' });
  const banned = s.createUser({ username: 'contract_banned' });
  const pruned = s.createUser({ username: 'contract_pruned' });
  const guild = s.createGuild({
    name: 'Contract Guild',
    ownerId: owner.id,
    icon: '0123456789abcdef0123456789abcdef',
    description: 'A guild',
    banner: 'fedcba9876543210fedcba9876543210',
  });
  for (const u of [member, kicked, banned, pruned]) s.addMember(guild.id, u.id);
  s.removeMember(guild.id, kicked.id, { reason: 'kick', actorId: owner.id, auditReason: 'spam' });
  s.removeMember(guild.id, banned.id, { reason: 'ban', actorId: owner.id });
  s.pruneMembers(guild.id, [pruned.id], owner.id);
  const invite = s.createInvite(guild.id, { code: 'contract-invite', maxAge: 3600 });
  Object.assign(ids, { guild: guild.id, member: member.id, owner: owner.id, invite: invite.code });
  // A user token as the product holds one after sign-in (identify, guilds scopes).
  bearer = 'contract-user-token';
  s.tokens.set(bearer, {
    userId: owner.id,
    scope: 'identify email guilds',
    expiresAt: Date.now() + 3_600_000,
    refreshToken: 'r',
  });
});
afterAll(() => sim.close());

async function call(
  operation: string,
  url: string,
  init: { method?: string; auth?: string | null; body?: unknown } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = {};
  const auth = init.auth === undefined ? `Bot ${DEFAULT_SIM_BOT_TOKEN}` : init.auth;
  if (auth) headers.authorization = auth;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${sim.url}/api/v10${url}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body: unknown = await res.json();
  checked.add(operation);
  return { status: res.status, body, headers: res.headers };
}

/** Validates a 2xx answer against the operation's documented 200 response: body and rate-limit headers. */
function expectDocumented(
  operation: string,
  answer: { status: number; body: unknown; headers: Headers },
  options: { headers: boolean } = { headers: true },
): void {
  const [method, route] = operation.split(' ') as [string, string];
  const documented = subset.paths[route]?.[method.toLowerCase()]?.responses['200'] as Response200 | undefined;
  expect(documented, `${operation} is in the pinned document`).toBeDefined();
  expect(answer.status).toBe(200);
  expect(documented!.content?.['application/json'], `${operation} documents a JSON body`).toBeDefined();
  const ref = pointer(
    'paths',
    route,
    method.toLowerCase(),
    'responses',
    '200',
    'content',
    'application/json',
    'schema',
  );
  const validate = schemaFor(ref);
  const ok = validate(answer.body);
  expect(ok ? [] : validate.errors, `${operation} against ${ref}`).toEqual([]);
  if (options.headers) expectHeaders(documented!.headers ?? {}, answer.headers, operation);
}

function expectHeaders(
  declared: Record<string, { $ref: string }>,
  headers: Headers,
  operation: string,
): void {
  for (const [name, { $ref }] of Object.entries(declared)) {
    const type = subset.components.headers[$ref.split('/').pop()!]!.schema.type;
    const value = headers.get(name);
    expect(value, `${operation}: header ${name}`).not.toBeNull();
    if (type === 'integer') expect(value).toMatch(/^\d+$/);
    if (type === 'number') expect(Number.isFinite(Number(value))).toBe(true);
  }
}

function expectError(schemaRef: string, body: unknown): void {
  const validate = schemaFor(schemaRef);
  expect(validate(body) ? [] : validate.errors).toEqual([]);
}

describe('pinned OpenAPI copy', () => {
  it('names its source and holds every operation the product calls', () => {
    expect(subset['x-source']).toMatchObject({
      repository: 'discord/discord-api-spec',
      path: 'specs/openapi.json',
      commit: '74fda0fad044407ea280043a03ffc9bc64c4e49e',
    });
    for (const op of [...Object.values(PRODUCT_ROUTES), ...DISCORD_JS_ROUTES]) {
      if (op === null) continue;
      const [method, route] = op.split(' ') as [string, string];
      expect(subset.paths[route]?.[method.toLowerCase()], op).toBeDefined();
    }
  });

  it('knows every Discord route the product code calls (a new call needs a contract check here)', () => {
    const root = path.resolve(import.meta.dirname, '../../..');
    const used = new Set<string>();
    for (const dir of ['src/discord', 'src/auth', 'src/campaigns', 'src/bot']) {
      for (const file of sourceFiles(path.join(root, dir))) {
        for (const m of readFileSync(file, 'utf8').matchAll(/\bRoutes\.(\w+)\(/g)) used.add(m[1]!);
      }
    }
    expect(used.size).toBeGreaterThan(5);
    expect([...used].filter((name) => !(name in PRODUCT_ROUTES))).toEqual([]);
  });
});

describe('simulator answers match the document', () => {
  it('GET /users/@me (user token, as at sign-in) and GET /users/@me/guilds (user and bot)', async () => {
    expectDocumented(
      'GET /users/@me',
      await call('GET /users/@me', '/users/@me', { auth: `Bearer ${bearer}` }),
    );
    expectDocumented('GET /users/@me', await call('GET /users/@me', '/users/@me'));
    const mine = await call('GET /users/@me/guilds', '/users/@me/guilds?limit=200', {
      auth: `Bearer ${bearer}`,
    });
    expectDocumented('GET /users/@me/guilds', mine);
    expect((mine.body as unknown[]).length).toBeGreaterThan(0);
    expectDocumented(
      'GET /users/@me/guilds',
      await call('GET /users/@me/guilds', '/users/@me/guilds?limit=200&after=0'),
    );
  });

  it('GET /invites/{code} with counts (with the bot token, as the product asks)', async () => {
    const answer = await call('GET /invites/{code}', `/invites/${ids.invite}?with_counts=true`);
    expectDocumented('GET /invites/{code}', answer);
    expect(answer.body).toMatchObject({ approximate_member_count: expect.any(Number) as number });
  });

  it('GET /invites/{code} without auth: the documented body, but no rate-limit headers (discord-api-docs #1487)', async () => {
    const answer = await call('GET /invites/{code}', `/invites/${ids.invite}?with_counts=true`, {
      auth: null,
    });
    expectDocumented('GET /invites/{code}', answer, { headers: false });
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-bucket'])
      expect(answer.headers.get(name), name).toBeNull();
  });

  it('GET /guilds/{id}, its members (page and one) and its audit log with kick, ban and prune', async () => {
    expectDocumented(
      'GET /guilds/{guild_id}',
      await call('GET /guilds/{guild_id}', `/guilds/${ids.guild}?with_counts=true`),
    );
    expectDocumented('GET /guilds/{guild_id}', await call('GET /guilds/{guild_id}', `/guilds/${ids.guild}`));
    const page = await call(
      'GET /guilds/{guild_id}/members',
      `/guilds/${ids.guild}/members?limit=1000&after=0`,
    );
    expectDocumented('GET /guilds/{guild_id}/members', page);
    expect((page.body as unknown[]).length).toBeGreaterThan(1);
    expectDocumented(
      'GET /guilds/{guild_id}/members/{user_id}',
      await call('GET /guilds/{guild_id}/members/{user_id}', `/guilds/${ids.guild}/members/${ids.member}`),
    );
    const audit = await call('GET /guilds/{guild_id}/audit-logs', `/guilds/${ids.guild}/audit-logs?limit=50`);
    expectDocumented('GET /guilds/{guild_id}/audit-logs', audit);
    const actions = (audit.body as { audit_log_entries: { action_type: number }[] }).audit_log_entries.map(
      (e) => e.action_type,
    );
    expect(actions.sort()).toEqual([20, 21, 22]);
  });

  it('GET /guilds/{id}/channels and POST /channels/{id}/invites (the picker’s never-expiring invite)', async () => {
    const channels = await call('GET /guilds/{guild_id}/channels', `/guilds/${ids.guild}/channels`);
    expectDocumented('GET /guilds/{guild_id}/channels', channels);
    const channelId = (channels.body as { id: string }[])[0]!.id;
    // The body the product sends (src/discord/discord-api.ts createPermanentInvite) is a documented request.
    const request = { max_age: 0, max_uses: 0, unique: false };
    const validateRequest = schemaFor('#/components/schemas/CreateGuildInviteRequest');
    expect(validateRequest(request) ? [] : validateRequest.errors).toEqual([]);
    const created = await call('POST /channels/{channel_id}/invites', `/channels/${channelId}/invites`, {
      method: 'POST',
      body: request,
    });
    expectDocumented('POST /channels/{channel_id}/invites', created);
    expect(created.body).toMatchObject({ max_age: 0, expires_at: null, guild_id: ids.guild });
  });

  it('POST /users/@me/channels and POST /channels/{id}/messages (a DM with an embed)', async () => {
    const channel = await call('POST /users/@me/channels', '/users/@me/channels', {
      method: 'POST',
      body: { recipient_id: ids.member },
    });
    expectDocumented('POST /users/@me/channels', channel);
    const channelId = (channel.body as { id: string }).id;
    const message = await call('POST /channels/{channel_id}/messages', `/channels/${channelId}/messages`, {
      method: 'POST',
      body: {
        content: 'Your campaign is complete',
        embeds: [{ title: 'Done', description: 'All slots filled', color: 5793266 }],
      },
    });
    expectDocumented('POST /channels/{channel_id}/messages', message);
  });

  it('the product’s global commands (user installs, contexts) are ApplicationCommandResponse; interactions carry documented owners and context', async () => {
    const res = await fetch(`${sim.url}/api/v10/applications/${sim.state.botId}/commands`, {
      method: 'PUT',
      headers: { authorization: `Bot ${DEFAULT_SIM_BOT_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(commandDefinitions()),
    });
    expect(res.status).toBe(200);
    const commands = (await res.json()) as {
      name: string;
      integration_types: number[];
      contexts: number[];
    }[];
    const validate = schemaFor('#/components/schemas/ApplicationCommandResponse');
    for (const command of commands)
      expect(validate(command) ? [] : validate.errors, command.name).toEqual([]);
    expect(commands.find((c) => c.name === 'daily')).toMatchObject({
      integration_types: [0, 1],
      contexts: [0, 1, 2],
    });
    // A private channel (context 2) reached through the member's user install.
    const payloads: Record<string, unknown>[] = [];
    const stop = sim.state.subscribe((e) => {
      if (e.type === 'interaction') payloads.push(e.payload);
    });
    sim.state.interactions.installForUser(ids.member);
    sim.state.interactions.runCommand({
      userId: ids.member,
      guildId: null,
      name: 'coins',
      privateChannel: true,
    });
    stop();
    const owners = schemaFor(
      '#/components/schemas/ApplicationCommandInteractionMetadataResponse/properties/authorizing_integration_owners',
    );
    const context = schemaFor('#/components/schemas/InteractionContextType');
    expect(payloads).toHaveLength(1);
    expect(owners(payloads[0]!.authorizing_integration_owners) ? [] : owners.errors).toEqual([]);
    expect(context(payloads[0]!.context) ? [] : context.errors).toEqual([]);
    expect(payloads[0]).toMatchObject({ context: 2, authorizing_integration_owners: { '1': ids.member } });
    sim.state.interactions.installForUser(ids.member, false);
  });

  it('GET /gateway/bot (discord.js, shards: "auto")', async () => {
    expectDocumented('GET /gateway/bot', await call('GET /gateway/bot', '/gateway/bot'));
  });

  it('errors: 4xx bodies are ErrorResponse, 429 bodies RatelimitedResponse with the documented headers', async () => {
    const unknown = await call('-', '/guilds/1234567890123456789');
    expect(unknown.status).toBe(404);
    expectError('#/components/schemas/ErrorResponse', unknown.body);
    const noMember = await call('-', `/guilds/${ids.guild}/members/1234567890123456789`);
    expect(noMember.body).toMatchObject({ code: 10007 });
    expectError('#/components/schemas/ErrorResponse', noMember.body);
    sim.state.setAcceptsDms(ids.member, false);
    const channel = await call('-', '/users/@me/channels', {
      method: 'POST',
      body: { recipient_id: ids.member },
    });
    const refused = await call('-', `/channels/${(channel.body as { id: string }).id}/messages`, {
      method: 'POST',
      body: { content: 'hi' },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 50007 } });
    expectError('#/components/schemas/ErrorResponse', refused.body);

    sim.state.rateLimits.configure({ buckets: { guild: { limit: 1, windowMs: 60_000 } } });
    sim.state.rateLimits.reset(); // buckets opened by earlier tests must not carry over
    await call('-', `/guilds/${ids.guild}`);
    const limited = await call('-', `/guilds/${ids.guild}`);
    expect(limited.status).toBe(429);
    expectError('#/components/schemas/RatelimitedResponse', limited.body);
    const documented = subset.components as unknown as { responses?: Record<string, Response200> };
    expectHeaders(documented.responses!.ClientRatelimitedResponse!.headers!, limited.headers, '429');
  });

  it('covered every operation of the pinned copy', () => {
    const all = Object.entries(subset.paths).flatMap(([route, item]) =>
      Object.keys(item)
        .filter((k) => k !== 'parameters')
        .map((m) => `${m.toUpperCase()} ${route}`),
    );
    expect(all.filter((op) => !checked.has(op))).toEqual([]);
  });
});

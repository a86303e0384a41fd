import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REST } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { WebSocket } from 'ws';
import { DEFAULT_RATE_LIMITS, type RateLimitStats } from './rate-limits.ts';
import {
  DEFAULT_SIM_BOT_TOKEN,
  startDiscordSimulator,
  type DiscordSimulator,
  type SimGuild,
} from './index.ts';

// Discord's rate-limit contract (discord-api-docs, topics/rate-limits): headers on every answer,
// 429 bodies, the global per-bot limit and the invalid-request count, as clients see them.

let sim: DiscordSimulator & { url: string };
let guild: SimGuild;
let other: SimGuild;
let memberId: string;
const bot = { authorization: `Bot ${DEFAULT_SIM_BOT_TOKEN}` };

beforeAll(async () => {
  sim = await startDiscordSimulator({ port: 0 });
  const owner = sim.state.createUser({ username: 'rl_owner' });
  memberId = sim.state.createUser({ username: 'rl_member' }).id;
  guild = sim.state.createGuild({ name: 'Limits', ownerId: owner.id });
  other = sim.state.createGuild({ name: 'Other limits', ownerId: owner.id });
  sim.state.addMember(guild.id, memberId);
});
afterAll(() => sim.close());
beforeEach(() => {
  // Windows long enough that a slow machine cannot slip into the next one mid-test.
  sim.state.rateLimits.config = structuredClone(DEFAULT_RATE_LIMITS);
  sim.state.rateLimits.configure({
    globalWindowMs: 60_000,
    buckets: { guild: { limit: 3, windowMs: 60_000 } },
  });
  sim.state.rateLimits.reset();
});

const get = (path: string, headers: Record<string, string> = bot) =>
  fetch(`${sim.url}/api/v10${path}`, { headers });

const stats = async (): Promise<RateLimitStats> => {
  const res = await fetch(`${sim.url}/control/rate-limits`);
  return ((await res.json()) as { stats: RateLimitStats }).stats;
};

describe('per-route buckets', () => {
  it('sends X-RateLimit-* headers and counts down per route and major parameter', async () => {
    const first = await get(`/guilds/${guild.id}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    const resetAfter = Number(first.headers.get('x-ratelimit-reset-after'));
    expect(resetAfter).toBeGreaterThan(0);
    expect(resetAfter).toBeLessThanOrEqual(60);
    // Reset is an epoch time in seconds (with milliseconds), Reset-After seconds from now.
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(first.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{16}$/);

    const second = await get(`/guilds/${guild.id}`);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('1');
    // Same route, another guild: same bucket hash, its own count (the guild id is a major parameter).
    const elsewhere = await get(`/guilds/${other.id}`);
    expect(elsewhere.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(elsewhere.headers.get('x-ratelimit-bucket')).toBe(first.headers.get('x-ratelimit-bucket'));
    // Another route: another bucket.
    const member = await get(`/guilds/${guild.id}/members/${memberId}`);
    expect(member.headers.get('x-ratelimit-bucket')).not.toBe(first.headers.get('x-ratelimit-bucket'));
    expect(member.headers.get('x-ratelimit-limit')).toBe(
      String(DEFAULT_RATE_LIMITS.buckets['guild-member']!.limit),
    );
  });

  it('answers 429 with Retry-After and {message, retry_after, global:false} once a bucket is empty', async () => {
    for (let i = 0; i < 3; i++) expect((await get(`/guilds/${guild.id}`)).status).toBe(200);
    const limited = await get(`/guilds/${guild.id}`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('user');
    expect(limited.headers.get('x-ratelimit-global')).toBeNull();
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    const body = (await limited.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toEqual({
      message: 'You are being rate limited.',
      retry_after: expect.any(Number) as number,
      global: false,
      code: 0,
    });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(body.retry_after).toBeLessThanOrEqual(retryAfter);
    expect(await stats()).toMatchObject({ rateLimited: 1, globalRateLimited: 0, invalidRequests: 1 });
  });
});

describe('global limit', () => {
  it('limits all routes of one bot together, with X-RateLimit-Global and scope global', async () => {
    sim.state.rateLimits.configure({ globalPerSecond: 4 });
    const paths = [
      `/guilds/${guild.id}`,
      `/guilds/${other.id}`,
      '/users/@me',
      `/guilds/${guild.id}/members/${memberId}`,
    ];
    for (const path of paths) expect((await get(path)).status).toBe(200);
    const limited = await get(`/invites/nothing-here`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-global')).toBe('true');
    expect(limited.headers.get('x-ratelimit-scope')).toBe('global');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ message: 'You are being rate limited.', global: true });
    // Someone else (no token: counted by address) is not held by the bot's global limit.
    expect((await fetch(`${sim.url}/api/v10/invites/nothing-here`)).status).toBe(404);
    expect(await stats()).toMatchObject({ globalRateLimited: 1 });
  });
});

describe('invalid requests', () => {
  it('counts 401, 403 and 429 over ten minutes, readable from the control API', async () => {
    expect((await get('/users/@me', { authorization: 'Bot wrong-token' })).status).toBe(401);
    expect((await get('/users/@me', { authorization: 'Bot wrong-token' })).status).toBe(401);
    sim.state.setBotCanViewAuditLog(guild.id, false);
    try {
      expect((await get(`/guilds/${guild.id}/audit-logs`)).status).toBe(403);
    } finally {
      sim.state.setBotCanViewAuditLog(guild.id, true);
    }
    // A 404 is not invalid in Discord's sense.
    expect((await get(`/guilds/${guild.id}/members/1234567890123456789`)).status).toBe(404);
    for (let i = 0; i < 4; i++) await get(`/guilds/${guild.id}`);
    const counted = await stats();
    expect(counted.invalidRequests).toBe(4);
    expect(sim.state.rateLimits.stats().invalidRequests).toBe(4);
    const res = await fetch(`${sim.url}/control/rate-limits/reset`, { method: 'POST' });
    expect(res.status).toBe(204);
    expect((await stats()).invalidRequests).toBe(0);
  });
});

describe('@discordjs/rest against the limits', () => {
  it('reads the headers and waits for its bucket instead of hitting 429', async () => {
    sim.state.rateLimits.configure({ buckets: { 'guild-member': { limit: 2, windowMs: 300 } } });
    const rest = new REST({ api: `${sim.url}/api`, version: '10' }).setToken(DEFAULT_SIM_BOT_TOKEN);
    const answers = await Promise.all(
      Array.from(
        { length: 7 },
        () => rest.get(Routes.guildMember(guild.id, memberId)) as Promise<{ user: { id: string } }>,
      ),
    );
    expect(answers.map((a) => a.user.id)).toEqual(Array(7).fill(memberId));
    // The first request of a new bucket is sent blind; everything after waits on the headers.
    expect((await stats()).rateLimited).toBeLessThanOrEqual(1);
  });

  it('retries after a global 429 and gets its answer', async () => {
    // A window long enough that the three requests, sent together, fall into it at load ~20 (200 ms let a
    // starved process send them apart, and none was limited); the retries wait out at most two windows.
    sim.state.rateLimits.configure({ globalPerSecond: 1, globalWindowMs: 2_000 });
    const rest = new REST({ api: `${sim.url}/api`, version: '10' }).setToken(DEFAULT_SIM_BOT_TOKEN);
    const guilds = await Promise.all([
      rest.get(Routes.guild(guild.id)),
      rest.get(Routes.guild(other.id)),
      rest.get(Routes.user('@me')),
    ]);
    expect(guilds).toHaveLength(3);
    expect((await stats()).globalRateLimited).toBeGreaterThan(0);
  }, 60_000);
});

describe('control API', () => {
  it('configures the limits and validates the body', async () => {
    const put = (body: unknown) =>
      fetch(`${sim.url}/control/rate-limits`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ buckets: { guild: { limit: 7, windowMs: 1000 } } })).status).toBe(204);
    expect((await get(`/guilds/${guild.id}`)).headers.get('x-ratelimit-limit')).toBe('7');
    expect((await put({ globalPerSecond: 0 })).status).toBe(400);
    expect((await put({ enabled: false })).status).toBe(204);
    expect((await get(`/guilds/${guild.id}`)).headers.get('x-ratelimit-limit')).toBeNull();
    const read = (await (await fetch(`${sim.url}/control/rate-limits`)).json()) as {
      config: { enabled: boolean };
    };
    expect(read.config.enabled).toBe(false);
  });
});

// Issue 26 item 6: what real Discord does that the product must survive.
describe('Discord as it really answers', () => {
  const control = (path: string, method: string, body: unknown) =>
    fetch(`${sim.url}/control${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers unauthenticated calls without rate-limit headers (discord-api-docs #1487), limited all the same', async () => {
    sim.state.createInvite(guild.id, { code: 'rl-public' });
    sim.state.rateLimits.configure({ buckets: { invite: { limit: 1, windowMs: 60_000 } } });
    const first = await get('/invites/rl-public', {});
    expect(first.status).toBe(200);
    for (const name of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset-after',
      'x-ratelimit-bucket',
    ])
      expect(first.headers.get(name), name).toBeNull();
    const second = await get('/invites/rl-public', {});
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).not.toBeNull();
    expect(second.headers.get('x-ratelimit-scope')).toBeNull();
    // With the bot token the same route announces its bucket (its own, per token).
    const withBot = await get('/invites/rl-public');
    expect(withBot.status).toBe(200);
    expect(withBot.headers.get('x-ratelimit-limit')).toBe('1');
  });

  it('limits each OAuth token on its own bucket', async () => {
    sim.state.rateLimits.configure({ buckets: { 'current-user-guilds': { limit: 1, windowMs: 60_000 } } });
    for (const name of ['a', 'b']) {
      sim.state.tokens.set(`rl-token-${name}`, {
        userId: memberId,
        scope: 'guilds',
        expiresAt: Date.now() + 60_000,
        refreshToken: 'r',
      });
    }
    const asUser = (name: string) => get('/users/@me/guilds', { authorization: `Bearer rl-token-${name}` });
    expect((await asUser('a')).status).toBe(200);
    expect((await asUser('a')).status).toBe(429);
    expect((await asUser('b')).status).toBe(200);
  });

  it('answers Cloudflare ban pages: HTML 429 with Retry-After, no JSON, no rate-limit headers, for every call', async () => {
    expect((await control('/rate-limits/ban', 'PUT', { seconds: 3600 })).status).toBe(204);
    for (const path of [`/guilds/${guild.id}`, '/invites/anything', '/users/@me']) {
      const res = await get(path);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('3600');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      expect(await res.text()).toMatch(/Cloudflare/);
    }
    expect((await stats()).cloudflareBanned).toBe(3);
    expect((await control('/rate-limits/ban', 'PUT', { seconds: 0 })).status).toBe(204);
    expect((await get(`/guilds/${guild.id}`)).status).toBe(200);
  });

  it('scripts one long Retry-After for the next matching call', async () => {
    const res = await control('/unreliable/next', 'POST', {
      fault: 'rate-limit',
      retryAfterSeconds: 120,
      method: 'GET',
      path: '/members/',
    });
    expect(res.status).toBe(204);
    expect((await get(`/guilds/${guild.id}`)).status).toBe(200);
    const limited = await get(`/guilds/${guild.id}/members/${memberId}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(120);
    expect(((await limited.json()) as { retry_after: number }).retry_after).toBe(120);
    expect((await get(`/guilds/${guild.id}/members/${memberId}`)).status).toBe(200);
    expect((await control('/unreliable/next', 'POST', { fault: 'nope' })).status).toBe(400);
  });

  /** A raw gateway IDENTIFY with the bot token: the close code, or 'ready'. */
  const identify = (): Promise<number | 'ready'> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/gateway?v=10&encoding=json`);
      ws.on('message', (raw: Buffer) => {
        const frame = JSON.parse(raw.toString()) as { op: number; t: string | null };
        if (frame.op === 10)
          ws.send(
            JSON.stringify({
              op: 2,
              d: {
                token: DEFAULT_SIM_BOT_TOKEN,
                intents: 1,
                properties: { os: 'linux', browser: 't', device: 't' },
              },
            }),
          );
        if (frame.t === 'READY') {
          ws.close();
          resolve('ready');
        }
      });
      ws.on('close', (code) => resolve(code));
      ws.on('error', reject);
    });

  it('rejects the bot token (401 on every bot call, 4004 on IDENTIFY) until it is made valid again', async () => {
    expect((await control('/bot-token', 'PUT', { valid: false })).status).toBe(204);
    const refused = await get(`/guilds/${guild.id}`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    expect(await identify()).toBe(4004);
    expect((await control('/bot-token', 'PUT', { valid: true })).status).toBe(204);
    expect((await get(`/guilds/${guild.id}`)).status).toBe(200);
    expect(await identify()).toBe('ready');
  });
});

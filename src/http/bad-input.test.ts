import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TestApp, TestClient } from '../test/harness.ts';
import { startPaymentsTestApp, type PaymentsTestEnv } from '../payments/test-support.ts';
import { sql } from 'drizzle-orm';

// Bad input anywhere gets a clear 4xx with { message } and changes nothing — never a 500.

// With the local Stripe fake configured, so payment endpoints validate input instead of answering 503.
let env: PaymentsTestEnv;
let app: TestApp;
let client: TestClient;
beforeAll(async () => {
  env = await startPaymentsTestApp();
  app = env.app;
  client = await app.signIn('fuzzer');
});
afterAll(() => env.close());

const ENDPOINTS: [string, string][] = [
  ['POST', '/api/servers'],
  ['POST', '/api/servers/no-bot'],
  ['POST', '/api/servers/%00/promote'],
  ['POST', '/api/servers/not-a-uuid/join'],
  ['POST', '/api/servers/not-a-uuid/claim-nobot'],
  ['DELETE', '/api/campaigns/not-a-uuid'],
  ['POST', '/api/hourly/claim'],
  ['POST', '/api/social/nope/start'],
  ['POST', '/api/social/nope/complete'],
  ['POST', '/api/create-payment-intent'],
  ['POST', '/api/payments/pi_nope/sync'],
  ['GET', '/api/bot/invite?guildId=1&guildId=2'],
  ['GET', '/api/bot/invite?guildId=abc'],
];

const junk = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant('not json at all'),
  fc.constant('{"unterminated'),
  fc.jsonValue(),
  fc.record(
    {
      name: fc.oneof(
        fc.string(),
        fc.integer(),
        fc.constant(null),
        fc.string({ minLength: 200, maxLength: 400 }),
      ),
      inviteLink: fc.oneof(fc.webUrl(), fc.string(), fc.constant('https://discord.gg/'), fc.constant(['x'])),
      coinReward: fc.oneof(
        fc.string(),
        fc.double(),
        fc.constant('1e9'),
        fc.constant('-5'),
        fc.constant('3.999'),
      ),
      memberCount: fc.oneof(
        fc.string(),
        fc.integer(),
        fc.constant('2.5'),
        fc.constant('99999999999999999999'),
      ),
      type: fc.oneof(fc.string(), fc.constant('regular '), fc.constant(['regular'])),
      packageType: fc.oneof(fc.string(), fc.constant('__proto__'), fc.constant('constructor')),
      isFeaturedIntent: fc.oneof(fc.boolean(), fc.string()),
    },
    { requiredKeys: [] },
  ),
);

/** Row counts of the tables a write would touch, on either engine (counts come back as strings on pg). */
async function snapshot() {
  const [row] = await app.query<{ tx: number | string; servers: number | string; joins: number | string }>(
    sql`SELECT (SELECT count(*) FROM transactions) AS tx, (SELECT count(*) FROM servers) AS servers,
      (SELECT count(*) FROM server_joins) AS joins`,
  );
  return { tx: Number(row!.tx), servers: Number(row!.servers), joins: Number(row!.joins) };
}

describe('bad input', () => {
  it('never answers 5xx, always explains itself, and changes nothing', async () => {
    const before = await snapshot();
    const balance = await client.balanceCents();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ENDPOINTS), junk, async ([method, path], body) => {
        const send = body !== undefined && method !== 'GET';
        const res = await client.request<{ message?: unknown }>(
          method,
          path,
          send ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
          send ? { 'content-type': 'application/json' } : {},
        );
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(typeof res.body?.message).toBe('string');
      }),
      { numRuns: 150 },
    );
    expect(await snapshot()).toEqual(before);
    expect(await client.balanceCents()).toBe(balance);
    await app.checkLedger();
  });

  it('refuses a NUL character in an id with a 4xx, on both engines (PostgreSQL cannot store one)', async () => {
    for (const path of ['/api/servers/%00/promote', '/api/servers/a%00b/join']) {
      const res = await client.post<{ message?: unknown }>(path, {});
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(typeof res.body?.message, path).toBe('string');
    }
  });

  it('refuses oversized bodies with a 413 and a message', async () => {
    const res = await client.request<{ message: string }>(
      'POST',
      '/api/servers',
      JSON.stringify({ name: 'x'.repeat(64_000) }),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toBeTruthy();
  });

  it('asks anonymous callers to sign in on every protected endpoint', async () => {
    const anon = app.anonymous();
    for (const [method, path] of ENDPOINTS) {
      const res =
        method === 'GET'
          ? await anon.get<{ message: string }>(path)
          : await anon.request<{ message: string }>(method, path, '{}', {
              'content-type': 'application/json',
            });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });
});

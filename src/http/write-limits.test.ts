import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { TOO_MANY_WRITES } from './write-limits.ts';

describe('per-user write limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      writeLimits: { perUser: { claim: 3, join: 2, social: 2, submit: 2, promote: 2 }, perAddress: 1000 },
    });
  });
  afterAll(() => app.close());

  it('answers 429 with a message past the limit, per user, and counts each kind of write apart', async () => {
    const member = await app.signIn('busy_claimer');
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await member.post('/api/hourly/claim', { type: 'bogus' })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const limited = await member.post<{ message: string }>('/api/servers/x/claim-nobot');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: TOO_MANY_WRITES });
    // Another kind of write still goes through, and so does another user's claim.
    expect((await member.post('/api/servers/none/join')).status).toBe(404);
    const other = await app.signIn('calm_claimer');
    expect((await other.post('/api/hourly/claim', { type: 'bogus' })).status).toBe(400);
  });

  it('limits submit, promote, join and social start/complete', async () => {
    const member = await app.signIn('spammer');
    const attempts: [string, unknown][] = [
      ['/api/servers', { name: '', inviteLink: '' }],
      ['/api/servers/no-bot', { name: '', inviteLink: '' }],
      ['/api/servers/none/promote', undefined],
      ['/api/servers/none/join', undefined],
      ['/api/social/none/start', undefined],
      ['/api/social/none/complete', undefined],
    ];
    const seen: Record<string, number> = {};
    for (let round = 0; round < 3; round++) {
      for (const [path, body] of attempts) {
        const res = await member.post(path, body);
        if (res.status === 429) seen[path] = (seen[path] ?? 0) + 1;
      }
    }
    // submit (2 routes share 2/min), promote, join and social (2 routes share 2/min) all hit their limits.
    expect(Object.keys(seen).sort()).toEqual(
      [
        '/api/servers',
        '/api/servers/no-bot',
        '/api/servers/none/join',
        '/api/servers/none/promote',
        '/api/social/none/complete',
        '/api/social/none/start',
      ].sort(),
    );
  });
});

describe('per-address limit and proxy trust', () => {
  it('ignores X-Forwarded-For without TRUST_PROXY, so a forged header cannot dodge the sign-in limit', async () => {
    const app = await startTestApp({ signInRateLimit: 3 });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const res = await app
          .anonymous()
          .raw('/api/auth/discord', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([302, 302, 302, 429, 429]);
    } finally {
      await app.close();
    }
  });

  it('reads the client address from the named proxy with TRUST_PROXY', async () => {
    const app = await startTestApp({ signInRateLimit: 2, env: { TRUST_PROXY: 'loopback' } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) {
        const res = await app
          .anonymous()
          .raw('/api/auth/discord', { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([302, 302, 302, 302]);
      const same = [];
      for (let i = 0; i < 3; i++) {
        same.push(
          (await app.anonymous().raw('/api/auth/discord', { headers: { 'x-forwarded-for': '198.51.100.7' } }))
            .status,
        );
      }
      expect(same).toEqual([302, 302, 429]);
    } finally {
      await app.close();
    }
  });

  it('limits all writes from one address, whoever is signed in', async () => {
    const app = await startTestApp({ writeLimits: { perAddress: 3 } });
    try {
      const a = await app.signIn('addr_a');
      const b = await app.signIn('addr_b', { address: a.address });
      const statuses = [];
      for (const client of [a, b, a, b])
        statuses.push((await client.post('/api/hourly/claim', { type: 'bogus' })).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await app.close();
    }
  });
});

import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inSeries } from './fast-path.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';

// The API's request stack runs as one router with the signed-in stack as one layer (decision 027).
// These tests pin what that restructuring must keep: the order and error handling of the combined
// layer, and every header and check on the hottest route, GET /api/servers.

function run(handlers: RequestHandler[]): Promise<{ err: unknown; calls: string[] }> {
  const calls: string[] = [];
  const req = { calls } as unknown as Request;
  return new Promise((resolve) => {
    inSeries(handlers)(req, {} as Response, ((err?: unknown) => resolve({ err, calls })) as NextFunction);
  });
}

const step =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    (req as unknown as { calls: string[] }).calls.push(name);
    next();
  };

describe('inSeries', () => {
  it('runs every handler in order, then continues', async () => {
    const { err, calls } = await run([step('a'), step('b'), step('c')]);
    expect(err).toBeUndefined();
    expect(calls).toEqual(['a', 'b', 'c']);
  });

  it('skips the rest on next(err), on a throw and on a rejected promise', async () => {
    const boom = new Error('boom');
    for (const failing of [
      ((_req, _res, next) => next(boom)) as RequestHandler,
      (() => {
        throw boom;
      }) as RequestHandler,
      (async () => {
        await Promise.resolve();
        throw boom;
      }) as RequestHandler,
    ]) {
      const { err, calls } = await run([step('a'), failing, step('never')]);
      expect(err).toBe(boom);
      expect(calls).toEqual(['a']);
    }
  });

  it('stops when a handler answers without calling next', async () => {
    const calls: string[] = [];
    let nextCalled = false;
    inSeries([
      step('a'),
      () => {
        calls.push('answered');
      },
      step('never'),
    ])({ calls } as unknown as Request, {} as Response, () => {
      nextCalled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(nextCalled).toBe(false);
  });
});

describe('the API stack', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { REDIS_URL: '' } });
  });
  afterAll(() => app.close());

  it('answers Discover with every security header, no-store and a request id', async () => {
    const member = await app.signIn('stack_headers');
    const res = await member.get<unknown[]>('/api/servers');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const h = res.headers;
    expect(h.get('content-security-policy')).toContain("default-src 'self'");
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(h.get('referrer-policy')).toBe('no-referrer');
    expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(h.get('cache-control')).toBe('no-store');
    expect(h.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.get('x-powered-by')).toBeNull();
  });

  it('refuses Discover without a session, with a forged cookie signature, and after sign-out', async () => {
    expect((await app.anonymous().get('/api/servers')).status).toBe(401);

    const member = await app.signIn('stack_forged');
    const [name, value] = [...member.cookies].find(([k]) => k.endsWith('.sid'))!;
    const forged = app.anonymous();
    // Same session id, signature of another secret: express-session must not accept it.
    forged.cookies.set(name, value.replace(/\.[^.]+$/, '.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'));
    expect((await forged.get('/api/servers')).status).toBe(401);

    expect((await member.get('/api/servers')).status).toBe(200);
    expect((await member.post('/api/auth/logout')).status).toBeLessThan(300);
    expect((await member.get('/api/servers')).status).toBe(401);
  });

  it('parses JSON bodies only where they are, and refuses bad ones with a 4xx { message }', async () => {
    const member = await app.signIn('stack_json');
    const before = await member.balanceCents();
    const tooBig = await member.request<{ message: string }>(
      'POST',
      '/api/hourly/claim',
      JSON.stringify({ type: 'regular', pad: 'x'.repeat(40_000) }),
      { 'content-type': 'application/json' },
    );
    expect(tooBig.status).toBe(413);
    expect(typeof tooBig.body.message).toBe('string');
    const malformed = await member.request<{ message: string }>('POST', '/api/hourly/claim', '{"type":', {
      'content-type': 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Malformed JSON body' });
    // Nothing was claimed by either.
    expect(await member.balanceCents()).toBe(before);
    await app.checkLedger();
  });

  it('refuses a cross-site write before the session is even read', async () => {
    const member = await app.signIn('stack_cross_site');
    const before = await member.balanceCents();
    const res = await member.request<{ message: string }>(
      'POST',
      '/api/hourly/claim',
      { type: 'regular' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Cross-site request refused' });
    expect(await member.balanceCents()).toBe(before);
  });
});

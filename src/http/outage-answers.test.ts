import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createLogger } from '../logger.ts';
import { requestContext } from './request-context.ts';
import { errorHandler, OUTAGE_PAGE } from './errors.ts';
import { AppError, STORAGE_READ_UNAVAILABLE_MESSAGE, STORAGE_UNAVAILABLE_MESSAGE } from '../shared/errors.ts';

// Issue 29 item 6: a page opened while Redis or PostgreSQL was down showed raw JSON (503, no
// Retry-After); reads with PostgreSQL down said "We cannot save changes right now". The product's own
// error handler, behind a route that meets the driver's error (SQLite's SQLITE_FULL code, PostgreSQL's
// 57P01 administrator shutdown) or a dependency's 503.

const logger = createLogger('silent');
let server: Server;
let base = '';

function failing(code: string): Error {
  return Object.assign(new Error(`driver says ${code}`), { code });
}

beforeAll(async () => {
  const app = express();
  app.use(requestContext(logger));
  app.get('/api/servers', () => {
    throw failing('57P01');
  });
  app.post('/api/hourly/claim', () => {
    throw failing('SQLITE_FULL');
  });
  app.get('/dashboard', () => {
    throw failing('57P01');
  });
  app.get('/rewards', () => {
    throw new AppError('unavailable', 'Sessions are unavailable right now.');
  });
  app.use(errorHandler(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('answers during an outage', () => {
  it('an API read says it could not load (not "cannot save"), with Retry-After', async () => {
    const res = await fetch(`${base}/api/servers`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(await res.json()).toEqual({ message: STORAGE_READ_UNAVAILABLE_MESSAGE });
  });

  it('an API write still says changes cannot be saved', async () => {
    const res = await fetch(`${base}/api/hourly/claim`, { method: 'POST' });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ message: STORAGE_UNAVAILABLE_MESSAGE });
  });

  it('a page gets a small HTML page with Retry-After, for storage trouble and for a dependency’s 503', async () => {
    for (const page of ['/dashboard', '/rewards']) {
      const res = await fetch(`${base}${page}`, { headers: { accept: 'text/html,application/xhtml+xml' } });
      expect(res.status, page).toBe(503);
      expect(res.headers.get('retry-after'), page).toBe('60');
      expect(res.headers.get('content-type'), page).toMatch(/^text\/html/);
      expect(await res.text(), page).toBe(OUTAGE_PAGE);
    }
  });

  it('every such failure is logged through the JSON logger with its request id', () => {
    const lines = logger.lines.filter((l) => l.includes('answering 503'));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.every((l) => /requestId/.test(l))).toBe(true);
    // A read is not called a write in the log either.
    expect(lines.find((l) => l.includes('/api/servers'))).toMatch(/database read failed/);
    expect(lines.find((l) => l.includes('/api/hourly/claim'))).toMatch(/database write failed/);
  });
});

// Issue 29 item 4: on a full disk each failed sign-in printed a 14-line plain-text stack outside the
// JSON log, without a request id. express-session saves the session once the answer has ended and
// hands a failed save to next(err) then: past the product's error handler (headers sent) to Express's
// final handler, which prints err.stack with console.error when the app's env is not "test".
describe('an error after the answer went out (the session save on a full disk)', () => {
  it('is logged through the JSON logger with the request id, and nothing is printed outside it', async () => {
    const { default: session } = await import('express-session');
    const sessionLogger = createLogger('silent');
    class FullDiskStore extends session.Store {
      get(_sid: string, cb: (err: unknown, s?: null) => void) {
        cb(null, null);
      }
      set(_sid: string, _s: unknown, cb?: (err?: unknown) => void) {
        cb?.(failing('SQLITE_FULL'));
      }
      destroy(_sid: string, cb?: (err?: unknown) => void) {
        cb?.();
      }
    }
    const app = express();
    app.set('env', 'production'); // as in production: Express's final handler prints stacks then
    app.use(requestContext(sessionLogger));
    app.use(
      session({ secret: 'test-secret', store: new FullDiskStore(), resave: false, saveUninitialized: false }),
    );
    app.get('/api/auth/discord/callback', (req, res) => {
      (req.session as unknown as { state: string }).state = 'x';
      res.redirect('/?login=failed');
    });
    app.use(errorHandler(sessionLogger));
    const printed: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => printed.push(args);
    const sessionServer = app.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => sessionServer.once('listening', r));
      const port = (sessionServer.address() as AddressInfo).port;
      await fetch(`http://127.0.0.1:${port}/api/auth/discord/callback`, { redirect: 'manual' }).catch(
        () => undefined, // the connection may be cut: the answer could not be completed
      );
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      console.error = original;
      await new Promise<void>((r) => sessionServer.close(() => r()));
    }
    expect(printed).toEqual([]);
    const line = sessionLogger.lines.find((l) => l.includes('after the response was sent'));
    expect(line).toBeDefined();
    expect(line).toMatch(/requestId/);
    expect(line).toMatch(/SQLITE_FULL/);
    expect(line).toMatch(/\/api\/auth\/discord\/callback/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { openEventStream, type EventStreamReader } from '../test/sse.ts';
import { SERVER_TIMEOUTS } from './server-limits.ts';

// Issue 27 items 2-3 (decision 040): floods meet limits, answered with a fast 503 and Retry-After, never
// with memory. Small limits here; scripts/flood.ts measures the real ones against the production build.

let app: TestApp;
const sockets: net.Socket[] = [];
const streams: EventStreamReader[] = [];

beforeAll(async () => {
  app = await startTestApp({
    env: {
      MAX_CONNECTIONS: '40',
      MAX_BODIES_IN_FLIGHT: '3',
      LIVE_STREAMS_MAX: '4',
      LIVE_STREAMS_PER_ADDRESS: '2',
    },
  });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  for (const s of streams) s.close();
  await app.close();
});

const port = () => Number(new URL(app.url).port);

/** A raw connection that sends `head` (and nothing more unless told); collects what comes back. */
async function rawConnection(head = ''): Promise<{ socket: net.Socket; received: () => string }> {
  const socket = net.connect(port(), '127.0.0.1');
  sockets.push(socket);
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  if (head) socket.write(head);
  return { socket, received: () => data };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const stalledPost = (path: string, cookie?: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 30000\r\n` +
  (cookie ? `Cookie: ${cookie}\r\n` : '') +
  `\r\n{"type":"reg`;

describe('server limits', () => {
  it('sets the server time limits (headers, whole request, keep-alive)', () => {
    expect(app.server.http.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeoutMs);
    expect(app.server.http.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeoutMs);
    expect(app.server.http.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeoutMs);
  });

  it('never reads an anonymous body: a stalled anonymous POST is answered 401 at once', async () => {
    const { received } = await rawConnection(stalledPost('/api/hourly/claim'));
    await until(() => received().includes('\r\n\r\n'), 'an answer');
    expect(received()).toMatch(/^HTTP\/1\.1 401 /);
  });

  it('answers 503 with Retry-After to a body beyond the bodies in flight, and serves GETs meanwhile', async () => {
    const member = await app.signIn('limits_member');
    const stalled = [];
    for (let i = 0; i < 3; i++)
      stalled.push(await rawConnection(stalledPost('/api/hourly/claim', member.cookieHeader)));
    await until(() => app.server.limits.bodiesInFlight === 3, 'three bodies in flight');
    const res = await member.post<{ message: string }>('/api/hourly/claim', { type: 'regular' });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.body.message).toMatch(/busy/);
    expect((await member.get('/api/auth/user')).status).toBe(200);
    for (const s of stalled) s.socket.destroy();
    await until(() => app.server.limits.bodiesInFlight === 0, 'the bodies to go');
    expect((await member.post('/api/hourly/claim', { type: 'regular' })).status).not.toBe(503);
  });

  it('answers 503 with Retry-After to a connection beyond the cap, before reading it', async () => {
    const open = [];
    while (app.server.limits.connections < 40) {
      open.push(await rawConnection());
      await new Promise((r) => setTimeout(r, 1));
    }
    const extra = await rawConnection('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await until(() => extra.received().length > 0, 'the refusal');
    expect(extra.received()).toMatch(/^HTTP\/1\.1 503 [^]*Retry-After: 5/);
    for (const c of open) c.socket.destroy();
    await until(() => app.server.limits.connections < 5, 'the connections to close');
    expect((await app.anonymous().get('/api/health')).status).toBe(200);
  });

  it('caps live-event streams per address and in all, with a 503 and Retry-After', async () => {
    const a = await app.signIn('streams_a', { address: '127.0.9.1' });
    const b = await app.signIn('streams_b', { address: '127.0.9.2' });
    const c = await app.signIn('streams_c', { address: '127.0.9.3' });
    for (const client of [a, a, b, b]) {
      const stream = await openEventStream(client);
      streams.push(stream);
      expect(stream.response.status).toBe(200);
    }
    const third = await a.get<{ message: string }>('/api/events');
    expect(third.status).toBe(503);
    expect(third.headers.get('retry-after')).toBe('30');
    // Four open in all: a new address is refused too.
    const full = await c.get<{ message: string }>('/api/events');
    expect(full.status).toBe(503);
    expect(full.body.message).toMatch(/reconnect/);
    streams.shift()!.close();
    let reopened: EventStreamReader | undefined;
    for (let i = 0; i < 50; i++) {
      reopened = await openEventStream(c);
      if (reopened.response.status === 200) break;
      reopened.close();
      await new Promise((r) => setTimeout(r, 20));
    }
    streams.push(reopened!);
    expect(reopened!.response.status).toBe(200);
  });
});

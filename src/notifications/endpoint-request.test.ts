import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToEndpoint } from './endpoint-request.ts';

// Decision 052: one request to an owner's endpoint. Production refuses every non-public address (the
// guard runs after DNS, before any connection); tests and the demo may allow loopback receivers.

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let port = 0;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/redirect') {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/elsewhere` }).end();
      } else if (req.url === '/hang') {
        // Never answers (the sender's time limit ends it).
      } else if (req.url === '/fail') {
        res.writeHead(503).end('try later');
      } else {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(100_000));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const send = (url: string, allowPrivate: boolean, timeoutMs = 5000) =>
  postToEndpoint(
    url,
    '{"id":"evt_1"}',
    { 'Content-Type': 'application/json', 'X-Test': 'yes' },
    {
      allowPrivate,
      timeoutMs,
    },
  );

describe('as production runs it (public addresses only)', () => {
  it.each([
    ['a loopback address', () => `https://127.0.0.1:${port}/hook`],
    ['a name that resolves to loopback', () => `https://localhost:${port}/hook`],
    ['loopback written as IPv4-mapped IPv6', () => `https://[::ffff:127.0.0.1]:${port}/hook`],
    ['IPv6 loopback', () => `https://[::1]:${port}/hook`],
    ['the cloud metadata address', () => 'https://169.254.169.254/latest/meta-data'],
    ['a private address', () => 'https://10.0.0.8/hook'],
  ])('refuses %s before connecting, for good', async (_what, url) => {
    const before = seen.length;
    const result = await send(url(), false);
    expect(result).toMatchObject({ statusCode: null, permanent: true });
    expect(result.error).toMatch(/private, loopback or link-local/);
    expect(seen.length).toBe(before);
  });

  it('refuses plain http', async () => {
    const result = await send(`http://example.com/hook`, false);
    expect(result).toMatchObject({ permanent: true, error: 'only https:// endpoints are allowed' });
  });
});

describe('with private targets allowed (tests, demo)', () => {
  it('posts the body and headers and reports the status, without keeping the answer', async () => {
    const result = await send(`http://127.0.0.1:${port}/hook`, true);
    expect(result).toMatchObject({ statusCode: 200, error: null, permanent: false });
    expect(Object.keys(result).sort()).toEqual(['error', 'latencyMs', 'permanent', 'statusCode']);
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ path: '/hook', body: '{"id":"evt_1"}' });
    expect(last.headers['x-test']).toBe('yes');
    expect(last.headers['content-length']).toBe('14');
  });

  it('never follows a redirect', async () => {
    const before = seen.length;
    const result = await send(`http://127.0.0.1:${port}/redirect`, true);
    expect(result).toMatchObject({ statusCode: 302, permanent: false });
    expect(result.error).toMatch(/redirects are not followed/);
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/redirect']);
  });

  it('gives up on an endpoint that does not answer within the time limit', async () => {
    const result = await send(`http://127.0.0.1:${port}/hang`, true, 300);
    expect(result).toMatchObject({ statusCode: null, error: 'no answer within 0.3 s', permanent: false });
  });

  it('reports a failing endpoint and a closed port as attempts to retry', async () => {
    expect(await send(`http://127.0.0.1:${port}/fail`, true)).toMatchObject({
      statusCode: 503,
      error: 'the endpoint answered 503',
      permanent: false,
    });
    expect(await send('http://127.0.0.1:1/hook', true)).toMatchObject({
      statusCode: null,
      error: 'connection refused',
      permanent: false,
    });
  });
});

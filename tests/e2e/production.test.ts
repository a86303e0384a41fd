import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The compiled build (`npm run build` → dist/server/main.js), started as production runs it: plain
// node, no TypeScript loader, NODE_ENV=production and real-mode configuration pointed at a Discord
// simulator running as its own process, behind a proxy it trusts (loopback).

const MAIN = path.resolve('dist/server/main.js');
const children: ChildProcess[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-prod-'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function startUntil(args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (match) resolve({ child, match });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code} before ${String(pattern)}:\n${seen}`)));
  });
}

const base = { PATH: process.env.PATH, HOME: process.env.HOME };
let url = '';
let simUrl = '';
let prodEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error('dist/server/main.js missing: run `npm run build` first');
  const sim = await startUntil(['--import', 'tsx', 'scripts/run-discord-sim.ts'], base, /listening on (\S+)/);
  simUrl = sim.match[1]!;
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  prodEnv = {
    ...base,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    TRUST_PROXY: 'loopback',
    SESSION_SECRET: 'production-test-session-secret-0123456789',
    TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
    DATABASE_PATH: path.join(dir, 'prod.db'),
    DISCORD_CLIENT_ID: '900000000000000001',
    DISCORD_CLIENT_SECRET: 'sim-client-secret',
    DISCORD_BOT_TOKEN: 'sim-bot-token',
    DISCORD_BASE_URL: simUrl,
    LOG_LEVEL: 'info',
  };
  await startUntil([MAIN], prodEnv, /CoinSync listening on/);
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const viaProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' };

describe('production mode (compiled build)', () => {
  it('does not mount the Discord simulator', async () => {
    const control = await fetch(`${url}/discord-sim/control/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(control.status).toBe(404);
    const page = await fetch(`${url}/discord-sim/`);
    expect(await page.text()).not.toMatch(/Discord simulator/i);
    const config = (await (await fetch(`${url}/api/config`)).json()) as { demoMode: boolean };
    expect(config.demoMode).toBe(false);
  });

  it('sends no-store, HSTS and CSP headers on the API', async () => {
    const res = await fetch(`${url}/api/config`, { headers: viaProxy });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('content-security-policy')).toMatch(/upgrade-insecure-requests/);
  });

  it('signs in through the real-mode OAuth2 path with a __Host- Secure cookie', async () => {
    const cookies = new Map<string, string>();
    const remember = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
    };
    const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');

    const start = await fetch(`${url}/api/auth/discord`, { headers: viaProxy, redirect: 'manual' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${simUrl}/oauth2/authorize`);
    const setCookie = start.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/^__Host-coinsync\.sid=/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).not.toMatch(/Domain=/i);
    remember(start);

    authorize.searchParams.set('login_hint', 'alex');
    const consent = await fetch(authorize, { redirect: 'manual' });
    const callback = consent.headers.get('location');
    expect(callback).toMatch(new RegExp(`^${url}/api/auth/discord/callback`));
    const done = await fetch(callback!, { headers: { ...viaProxy, cookie: cookieHeader() }, redirect: 'manual' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/');
    remember(done);
    const me = await fetch(`${url}/api/auth/user`, { headers: { ...viaProxy, cookie: cookieHeader() } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { discordUsername: string }).discordUsername).toBe('alex');
  });

  it('refuses to start without credentials, naming what is missing, and exits non-zero', () => {
    const { DISCORD_CLIENT_ID: _id, ...withoutId } = prodEnv;
    const missing = spawnSync(process.execPath, [MAIN], { env: withoutId, encoding: 'utf8', timeout: 20_000 });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/DISCORD_CLIENT_ID: is required in production/);
    const empty = spawnSync(process.execPath, [MAIN], { env: { ...prodEnv, DISCORD_BOT_TOKEN: '' }, encoding: 'utf8', timeout: 20_000 });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/DISCORD_BOT_TOKEN: is set but empty/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, startWatchedProcess } from '../../src/test/child-process.ts';

// The compiled build (`npm run build` → dist/server/main.js), started as production runs it: plain
// node, no TypeScript loader, NODE_ENV=production and real-mode configuration pointed at a Discord
// simulator and a Stripe fake each running as its own process (the fake delivers signed webhooks on its
// own, as Stripe does), behind a proxy it trusts (loopback).

const MAIN = path.resolve('dist/server/main.js');
const children: ChildProcess[] = [];
const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-prod-'));

/** Starts `node args…` and resolves once a line of its output matches the pattern. */
async function startUntil(
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const script = args.find((arg) => /\.[jt]s$/.test(arg)) ?? 'node';
  const proc = startWatchedProcess(path.basename(script), args, { env });
  children.push(proc.child);
  const line = await proc.waitForLine(pattern);
  return { child: proc.child, match: pattern.exec(line)! };
}

const base = { PATH: process.env.PATH, HOME: process.env.HOME };
let url = '';
let simUrl = '';
let stripeUrl = '';
let prodEnv: NodeJS.ProcessEnv = {};
const STRIPE_SECRET_KEY = 'sk_test_production_mode_test_0123456789';
const STRIPE_WEBHOOK_SECRET = 'whsec_production_mode_test_0123456789';

beforeAll(async () => {
  if (!existsSync(MAIN)) throw new Error('dist/server/main.js missing: run `npm run build` first');
  const sim = await startUntil(['--import', 'tsx', 'scripts/run-discord-sim.ts'], base, /listening on (\S+)/);
  simUrl = sim.match[1]!;
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const stripe = await startUntil(
    ['--import', 'tsx', 'scripts/run-fake-stripe.ts', '--webhook-url', `${url}/api/stripe/webhook`],
    { ...base, FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET },
    /listening on (\S+)/,
  );
  stripeUrl = stripe.match[1]!;
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
    STRIPE_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_production_mode_test_0123456789',
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: stripeUrl,
    LOG_LEVEL: 'info',
  };
  await startUntil([MAIN], prodEnv, /CoinSync listening on/);
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

const viaProxy = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.20' };

interface Session {
  get(path: string): Promise<Response>;
  post(path: string, body: unknown): Promise<Response>;
}

/** Signs in through the real OAuth2 redirects (product → simulator's authorize → callback) behind the proxy. */
async function signIn(username: string, checkCookie?: (setCookie: string) => void): Promise<Session> {
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
  checkCookie?.(start.headers.getSetCookie().join('\n'));
  remember(start);

  authorize.searchParams.set('login_hint', username);
  const consent = await fetch(authorize, { redirect: 'manual' });
  const callback = consent.headers.get('location');
  expect(callback).toMatch(new RegExp(`^${url}/api/auth/discord/callback`));
  const done = await fetch(callback!, {
    headers: { ...viaProxy, cookie: cookieHeader() },
    redirect: 'manual',
  });
  expect(done.status).toBe(302);
  expect(done.headers.get('location')).toBe('/');
  remember(done);
  return {
    get: (path) => fetch(`${url}${path}`, { headers: { ...viaProxy, cookie: cookieHeader() } }),
    post: (path, body) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { ...viaProxy, cookie: cookieHeader(), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

describe('production mode (compiled build)', () => {
  it('does not mount the Discord simulator', async () => {
    const control = await fetch(`${url}/discord-sim/control/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(control.status).toBe(404);
    const page = await fetch(`${url}/discord-sim/`);
    expect(await page.text()).not.toMatch(/Discord simulator/i);
    const config = (await (await fetch(`${url}/api/config`)).json()) as { demoMode: boolean };
    expect(config.demoMode).toBe(false);
  });

  it("does not mount demo mode's fake Stripe nor its Stripe.js stand-in (CSP as ever)", async () => {
    expect((await fetch(`${url}/stripe-sim/stripe.js`)).status).toBe(404);
    const confirm = await fetch(`${url}/stripe-sim/v1/payment_intents/pi_x/confirm`, {
      method: 'POST',
      headers: { authorization: 'Bearer pk_test_x', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_secret=pi_x_secret_y',
    });
    expect(confirm.status).toBe(404);
    const config = (await (await fetch(`${url}/api/config`)).json()) as { stripeJsUrl: string | null };
    expect(config.stripeJsUrl).toBeNull();
    const csp = (await fetch(`${url}/api/config`)).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self' https://js.stripe.com https://*.js.stripe.com");
    expect(csp).not.toMatch(/stripe-sim|127\.0\.0\.1|localhost/);
  });

  it('sends no-store, HSTS and CSP headers on the API', async () => {
    const res = await fetch(`${url}/api/config`, { headers: viaProxy });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('content-security-policy')).toMatch(/upgrade-insecure-requests/);
  });

  it('signs in through the real-mode OAuth2 path with a __Host- Secure cookie', async () => {
    const session = await signIn('alex', (setCookie) => {
      expect(setCookie).toMatch(/^__Host-coinsync\.sid=/);
      expect(setCookie).toMatch(/; Path=\//);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).toMatch(/; Secure/);
      expect(setCookie).toMatch(/; SameSite=Lax/);
      expect(setCookie).not.toMatch(/Domain=/i);
    });
    const me = await session.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { discordUsername: string }).discordUsername).toBe('alex');
  });

  it('buys a coin pack end to end: PaymentIntent at the Stripe fake, paid, signed webhook credits once', async () => {
    const session = await signIn('pack_buyer');
    const before = (await (await session.get('/api/auth/user')).json()) as { coins: string };
    const created = await session.post('/api/create-payment-intent', { packageType: 'medium' });
    expect(created.status).toBe(200);
    const { clientSecret } = (await created.json()) as { clientSecret: string };
    const intentId = clientSecret.split('_secret_')[0]!;
    // What Stripe.js does in the browser: confirm the intent at Stripe with a test card.
    const confirm = await fetch(`${stripeUrl}/v1/payment_intents/${intentId}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${STRIPE_SECRET_KEY}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'payment_method=pm_card_visa',
    });
    expect(((await confirm.json()) as { status: string }).status).toBe('succeeded');
    // The fake delivers payment_intent.succeeded to the product's webhook, signed; wait for the credit.
    const expected = ((Number(before.coins) * 100 + 55_000) / 100).toFixed(2);
    let coins = before.coins;
    for (let i = 0; i < 100 && coins !== expected; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      coins = ((await (await session.get('/api/auth/user')).json()) as { coins: string }).coins;
    }
    expect(coins).toBe(expected);
    // The browser's return-page sync afterwards changes nothing: credited exactly once.
    const sync = await session.post(`/api/payments/${intentId}/sync`, {});
    expect(sync.status).toBe(200);
    const after = (await (await session.get('/api/auth/user')).json()) as { coins: string };
    expect(after.coins).toBe(expected);
  });

  it('runs the operator commands compiled (no TypeScript loader): an online backup of the live database', () => {
    const file = path.join(dir, 'backup.db');
    const backup = spawnSync(process.execPath, ['scripts/cli.mjs', 'backup', file], {
      env: { ...prodEnv, CLI_COMPILED: '1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(backup.stderr).toBe('');
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/quick_check ok, ledger balanced/);
    expect(existsSync(file)).toBe(true);
    const tasks = spawnSync(process.execPath, ['scripts/cli.mjs', 'tasks', 'list'], {
      env: { ...prodEnv, CLI_COMPILED: '1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(tasks.status).toBe(0);
  });

  it(
    'refuses to start without credentials, naming what is missing, and exits non-zero',
    { timeout: 200_000 },
    () => {
      const { DISCORD_CLIENT_ID: _id, ...withoutId } = prodEnv;
      const missing = spawnSync(process.execPath, [MAIN], {
        env: withoutId,
        encoding: 'utf8',
        timeout: 90_000, // a hang guard: under CI load (20+) the compiled server took over 20 s to get this far
      });
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/DISCORD_CLIENT_ID: is required in production/);
      const empty = spawnSync(process.execPath, [MAIN], {
        env: { ...prodEnv, DISCORD_BOT_TOKEN: '' },
        encoding: 'utf8',
        timeout: 90_000, // a hang guard: under CI load (20+) the compiled server took over 20 s to get this far
      });
      expect(empty.status).toBe(1);
      expect(empty.stderr).toMatch(/DISCORD_BOT_TOKEN: is set but empty/);
    },
  );
});

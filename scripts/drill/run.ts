// The fault drill (issue 29 item 6): starts the product as production runs it (NODE_ENV=production,
// real-mode configuration, JSON logs) on loopback with its dependencies as child processes of this
// script: the Discord simulator, the Stripe fake, a Redis server of its own (own port, own directory),
// then injects one fault at a time and records what /api/ready, /metrics, the JSON logs and a user's
// requests show. Prints a markdown table (docs/deploy.md's operator table is this table) and, with
// --out, writes the observations as JSON.
//
//   npm run drill                         every fault
//   npm run drill -- --only redis-stop    one (names below, comma-separated)
//   npm run drill -- --runtime dist       the compiled build (npm run build first); default tsx
//
// Bounded: each fault has a time cap, the whole drill stops itself after DRILL_LIMIT_MS, every child is
// stopped on exit. Loopback only.
//
// Disk full: with a tmpfs it can mount (root), the database lives on a 80 MB file system that the drill
// fills with a filler file (ENOSPC, SQLITE_FULL, and the free-space check sees it). Without root it
// lowers the product's RLIMIT_FSIZE (prlimit) to the database files' current sizes: every write that
// would grow a file fails (EFBIG, SQLite's disk I/O error) but the file system still has room, so the
// free-space check cannot see it; the drill says which way it ran.
// PostgreSQL (`--database postgres`): the product runs on a fresh database of its own (created on the
// PostgreSQL at DRILL_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres, dropped at the end)
// through a TCP proxy of the drill's (tcp-proxy.ts), which cuts it: stopped (connections closed, port
// refused) or hanging (nothing forwarded), then restored. Disk full is SQLite's only (on PostgreSQL the
// disk is the database server's).
// Clock jump: the Stripe fake is restarted signing its webhooks with a clock 10 minutes behind the
// product's (FAKE_STRIPE_SIGNING_SKEW_SECONDS=-600; Stripe's library rejects a signature older than its
// 5-minute tolerance; one from the future passes, measured); a purchase's webhooks fail, and the
// Stripe reconciliation job credits it. With this fault the product runs that job every 10 s
// (STRIPE_RECONCILE_SECONDS=10; production's default stays 600).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEFAULT_SIM_BOT_TOKEN,
  DEFAULT_SIM_CLIENT_ID,
  DEFAULT_SIM_CLIENT_SECRET,
} from '../../src/sim/discord/index.ts';
import { freePort, startWatchedProcess, type WatchedProcess } from '../../src/test/child-process.ts';
import { DIST_ENTRY, productionNodeFlags } from '../bench/processes.ts';
import { startTcpProxy, type DrillProxy } from './tcp-proxy.ts';

const root = path.resolve(import.meta.dirname, '../..');
const DRILL_LIMIT_MS = 6 * 60_000;
export const FAULTS = [
  'redis-stop',
  'redis-hang',
  'postgres-stop',
  'postgres-hang',
  'discord-down',
  'stripe-down',
  'clock-jump',
  'disk-full',
] as const;
export type FaultName = (typeof FAULTS)[number];

export interface Observation {
  fault: string;
  how: string;
  readiness: string;
  metrics: string;
  logs: string;
  users: string;
  /** Lines the product printed that are not JSON (stacks outside the logger): should be none. */
  plainLines: number;
  recovered: string;
}

const STRIPE_SECRET_KEY = 'sk_test_drill_0123456789abcdef';
const STRIPE_WEBHOOK_SECRET = 'whsec_drill_0123456789abcdef';
const METRICS_TOKEN = 'drill-metrics-token-0123456789';
const MONITORING = { authorization: `Bearer ${METRICS_TOKEN}` };
const PROXY = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.77' };

const children = new Set<ChildProcess>();
function track<T extends { child: ChildProcess }>(proc: T): T {
  children.add(proc.child);
  proc.child.once('exit', () => children.delete(proc.child));
  return proc;
}
function killAll(): void {
  for (const child of children) {
    if (child.signalCode === 'SIGSTOP') child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Timed {
  status: number | string;
  ms: number;
  body: string;
  headers: Headers | null;
}
async function timedFetch(url: string, init: RequestInit = {}, timeoutMs = 15_000): Promise<Timed> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    return { status: res.status, ms: Date.now() - started, body, headers: res.headers };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const status =
      e.name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (e.cause?.code ?? 'error');
    return { status, ms: Date.now() - started, body: '', headers: null };
  }
}

/** A signed-in user of the drill (cookie jar through the reverse proxy's headers). */
class User {
  cookies = new Map<string, string>();
  constructor(
    private readonly url: string,
    private readonly simUrl: () => string,
  ) {}
  private remember(headers: Headers | null) {
    for (const line of headers?.getSetCookie() ?? []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  private headers(extra: Record<string, string> = {}) {
    return { ...PROXY, cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...extra };
  }
  /** The whole OAuth2 sign-in; answers what the browser would end on (the callback's redirect or error). */
  async signIn(username: string): Promise<string> {
    const start = await timedFetch(`${this.url}/api/auth/discord`, { headers: this.headers() });
    if (start.status !== 302) return `sign-in start: ${describe(start)}`;
    this.remember(start.headers);
    const authorize = new URL(start.headers!.get('location')!);
    authorize.searchParams.set('login_hint', username);
    const consent = await timedFetch(authorize.toString(), {}, 10_000);
    const callback = consent.headers?.get('location');
    if (!callback) return `Discord's authorize page: ${describe(consent)}`;
    const done = await timedFetch(callback, { headers: this.headers() });
    this.remember(done.headers);
    return done.status === 302 ? `redirected to ${done.headers!.get('location')}` : describe(done);
  }
  get(p: string, accept = 'application/json') {
    return timedFetch(`${this.url}${p}`, { headers: this.headers({ accept }) });
  }
  post(p: string, body: unknown) {
    return timedFetch(`${this.url}${p}`, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
    });
  }
}

function describe(t: Timed): string {
  if (typeof t.status === 'string') return `${t.status} (${t.ms} ms)`;
  let what = '';
  try {
    const json = JSON.parse(t.body) as { message?: string };
    what = json.message ? ` "${json.message}"` : '';
  } catch {
    if (/We will be right back/.test(t.body)) what = ' HTML "We will be right back"';
  }
  const retry = t.headers?.get('retry-after');
  return `${t.status}${what}${retry ? ` Retry-After ${retry}` : ''} (${t.ms} ms)`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      runtime: { type: 'string', default: 'tsx' },
      out: { type: 'string' },
      sessions: { type: 'string', default: 'redis' },
      database: { type: 'string', default: 'sqlite' },
    },
  });
  const database = values.database === 'postgres' ? 'postgres' : 'sqlite';
  const only = values.only ? (values.only.split(',') as FaultName[]) : [...FAULTS];
  for (const name of only)
    if (!FAULTS.includes(name)) throw new Error(`unknown fault ${name}: ${FAULTS.join(', ')}`);
  const limit = setTimeout(() => {
    console.error(`drill: over ${DRILL_LIMIT_MS / 1000} s; stopping everything`);
    killAll();
    process.exit(1);
  }, DRILL_LIMIT_MS);
  limit.unref();
  const sessions = values.sessions === 'database' ? 'database' : 'redis';
  const observations = await runDrill({
    only: only.filter(
      (f) =>
        !(sessions === 'database' && f.startsWith('redis')) &&
        !(database === 'sqlite' && f.startsWith('postgres')) &&
        !(database === 'postgres' && f === 'disk-full'),
    ),
    runtime: values.runtime === 'dist' ? 'dist' : 'tsx',
    sessions,
    database,
  });
  console.log(table(observations));
  if (values.out) writeFileSync(values.out, JSON.stringify(observations, null, 2) + '\n');
}

export interface DrillOptions {
  only: readonly FaultName[];
  runtime: 'dist' | 'tsx';
  /** Where sessions live: the drill's Redis (default), or the database (the one-box layout without Redis). */
  sessions?: 'redis' | 'database';
  /** The product's database: SQLite (default) or a fresh PostgreSQL database behind the drill's proxy. */
  database?: 'sqlite' | 'postgres';
  log?: (line: string) => void;
}

/** Runs the drill; resolves with one observation per fault (children stopped, files removed). */
export async function runDrill(options: DrillOptions): Promise<Observation[]> {
  const log = options.log ?? ((line: string) => console.error(`drill: ${line}`));
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-drill-'));
  const diskDir = path.join(dir, 'disk');
  mkdirSync(diskDir);
  let tmpfs = false;
  // DRILL_DISK=rlimit: the way without root, even as root.
  if (options.only.includes('disk-full') && process.getuid?.() === 0 && process.env.DRILL_DISK !== 'rlimit') {
    tmpfs = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=80m', 'tmpfs', diskDir]).status === 0;
  }
  const base = { PATH: process.env.PATH, HOME: process.env.HOME };
  const observations: Observation[] = [];
  const pgAdminUrl = process.env.DRILL_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const pgDatabase = `coinsync_drill_${process.pid}_${Date.now()}`;
  let pgCreated = false;
  let pgProxy: DrillProxy | null = null;
  try {
    let databaseEnv: NodeJS.ProcessEnv = {};
    if (options.database === 'postgres') {
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${pgDatabase}`);
        pgCreated = true;
      } finally {
        await admin.end();
      }
      const target = new URL(pgAdminUrl);
      pgProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const proxied = new URL(pgAdminUrl);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(pgProxy.port);
      proxied.pathname = `/${pgDatabase}`;
      databaseEnv = { DATABASE_URL: proxied.toString() };
    }
    // Redis of the drill's own: its port, its directory, an append-only file (sessions survive a restart).
    const redisPort = await freePort();
    const startRedis = async () => {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(redisPort),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--appendonly',
          'yes',
          '--save',
          '',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const proc = track({ child });
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stdout.on('data', (c: Buffer) => {
          seen += c.toString();
          if (/Ready to accept connections/.test(seen)) resolve();
        });
        child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${seen.slice(-500)}`)));
      });
      return proc.child;
    };
    let redis = await startRedis();

    const simPort = await freePort();
    const simState = path.join(dir, 'discord-sim.json');
    const startSim = async () => {
      const sim = track(
        startWatchedProcess(
          'Discord simulator',
          ['--import', 'tsx', 'scripts/run-discord-sim.ts', '--port', String(simPort), '--state', simState],
          { cwd: root, env: { ...base, SIM_RATE_LIMITS: 'off' } },
        ),
      );
      await sim.waitForLine(/listening on/, 60_000);
      return sim;
    };
    let sim = await startSim();
    const simUrl = `http://127.0.0.1:${simPort}`;

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const stripePort = await freePort();
    const startStripe = async (signingSkewSeconds = 0) => {
      const stripe = track(
        startWatchedProcess(
          'Stripe fake',
          [
            '--import',
            'tsx',
            'scripts/run-fake-stripe.ts',
            '--port',
            String(stripePort),
            '--webhook-url',
            `${url}/api/stripe/webhook`,
          ],
          {
            cwd: root,
            env: {
              ...base,
              FAKE_STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET,
              FAKE_STRIPE_SIGNING_SKEW_SECONDS: String(signingSkewSeconds),
            },
          },
        ),
      );
      await stripe.waitForLine(/listening on/, 60_000);
      return stripe;
    };
    let stripe = await startStripe();

    const databasePath = path.join(diskDir, 'coinsync.db');
    const env: NodeJS.ProcessEnv = {
      ...base,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      TRUST_PROXY: 'loopback',
      SESSION_SECRET: 'drill-session-secret-0123456789-abcdefghijklmnop',
      TOKEN_ENCRYPTION_KEY: 'ef'.repeat(32),
      DATABASE_PATH: databasePath,
      ...databaseEnv,
      // The clock jump waits for the Stripe reconciliation job: every 10 s here (production: 600 s).
      ...(options.only.includes('clock-jump') ? { STRIPE_RECONCILE_SECONDS: '10' } : {}),
      ...(options.sessions === 'database' ? {} : { REDIS_URL: `redis://127.0.0.1:${redisPort}` }),
      DISCORD_CLIENT_ID: DEFAULT_SIM_CLIENT_ID,
      DISCORD_CLIENT_SECRET: DEFAULT_SIM_CLIENT_SECRET,
      DISCORD_BOT_TOKEN: DEFAULT_SIM_BOT_TOKEN,
      DISCORD_BASE_URL: simUrl,
      STRIPE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_drill_0123456789abcdef',
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${stripePort}`,
      LOG_LEVEL: 'info',
      // Production serves /metrics (and /api/ready's details) to this bearer only (issue 27 item 5).
      METRICS_TOKEN,
    };
    if (options.runtime === 'dist' && !existsSync(DIST_ENTRY)) throw new Error('run `npm run build` first');
    const product: WatchedProcess = track(
      startWatchedProcess(
        'product',
        options.runtime === 'dist'
          ? [...productionNodeFlags(), DIST_ENTRY]
          : ['--import', 'tsx', 'src/main.ts'],
        { cwd: root, env, keep: 5000 },
      ),
    );
    await product.waitForLine(/CoinSync listening on/, 90_000);
    await product.waitForLine(/bot: connected as/, 60_000);
    log(
      `product up at ${url} (${options.runtime}, ${options.database ?? 'sqlite'}); Redis :${redisPort}, simulator :${simPort}, Stripe :${stripePort}`,
    );

    const user = new User(url, () => simUrl);
    const signedIn = await user.signIn('drill_member');
    log(`signed in: ${signedIn}`);
    let userCounter = 0;

    // --- what each surface shows ---
    let mark = 0;
    const markLogs = () => (mark = product.output.length);
    const newLogs = () => {
      const lines = product.output.slice(mark);
      const msgs = new Map<string, number>();
      let plain = 0;
      for (const line of lines) {
        try {
          const rec = JSON.parse(line) as { level?: string; msg?: string; code?: string };
          if (rec.level === 'warn' || rec.level === 'error') {
            const key = `${rec.level.toUpperCase()} ${rec.msg}${rec.code ? ` (${rec.code})` : ''}`;
            msgs.set(key, (msgs.get(key) ?? 0) + 1);
          }
        } catch {
          plain++;
        }
      }
      return { text: [...msgs].map(([m, n]) => (n > 1 ? `${m} ×${n}` : m)).join('; ') || 'none', plain };
    };
    const readiness = async () => {
      const res = await timedFetch(`${url}/api/ready`, { headers: MONITORING });
      if (res.status === 200) return { ok: true, text: `200 ready (${res.ms} ms)` };
      try {
        const report = JSON.parse(res.body) as { checks?: Record<string, { ok: boolean; detail: string }> };
        const failing = Object.entries(report.checks ?? {})
          .filter(([, c]) => !c.ok)
          .map(([name, c]) => `${name}: ${c.detail}`);
        return { ok: false, text: `${res.status}: ${failing.join('; ')} (${res.ms} ms)` };
      } catch {
        return { ok: false, text: describe(res) };
      }
    };
    /** Polls /api/ready until it is red (or green, with want=true) or the cap; says after how long. */
    const readinessUntil = async (wantOk: boolean, capMs: number) => {
      const started = Date.now();
      let last = await readiness();
      while (last.ok !== wantOk && Date.now() - started < capMs) {
        await sleep(1000);
        last = await readiness();
      }
      const s = ((Date.now() - started) / 1000).toFixed(0);
      return last.ok === wantOk
        ? `after ${s} s: ${last.text}`
        : `still ${last.ok ? 'green' : 'red'} after ${s} s: ${last.text}`;
    };
    const metrics = async () => {
      const res = await timedFetch(`${url}/metrics`, { headers: MONITORING });
      if (res.status !== 200) return `/metrics: ${describe(res)}`;
      const zero = res.body
        .split('\n')
        .filter((l) => /^coinsync_ready\{/.test(l) && / 0$/.test(l))
        .map((l) => l.replace(/ 0$/, ' 0'));
      const failures = res.body
        .split('\n')
        .filter((l) => /outcome="failure"/.test(l) && !/ 0$/.test(l))
        .map((l) => l.replace(/^coinsync_/, 'coinsync_'));
      const gauges = res.body.split('\n').filter((l) => /^coinsync_ready\{/.test(l)).length;
      return [...zero, ...failures].join(', ') || `all ${gauges} coinsync_ready gauges 1`;
    };

    const record = async (
      fault: string,
      how: string,
      inject: () => Promise<void> | void,
      userSees: () => Promise<string>,
      readyCapMs: number,
      restore: () => Promise<void> | void,
    ) => {
      log(`${fault}: injecting`);
      markLogs();
      await inject();
      const users = await userSees();
      const ready = await readinessUntil(false, readyCapMs);
      const metricLine = await metrics();
      const logs = newLogs();
      log(`${fault}: restoring`);
      await restore();
      const back = await readinessUntil(true, 90_000);
      const after = await user.get('/api/auth/user');
      const obs: Observation = {
        fault,
        how,
        readiness: ready,
        metrics: metricLine,
        logs: logs.text,
        users,
        plainLines: logs.plain,
        recovered: `${back}; the signed-in user's GET /api/auth/user: ${describe(after)}`,
      };
      log(JSON.stringify(obs));
      observations.push(obs);
    };

    const userReadAndWrite = async (rewardType = 'regular') => {
      const read = await user.get('/api/auth/user');
      const write = await user.post('/api/hourly/claim', { type: rewardType });
      const page = await user.get('/dashboard', 'text/html');
      return `read GET /api/auth/user: ${describe(read)}; write POST /api/hourly/claim (${rewardType}): ${describe(write)}; page /dashboard: ${describe(page)}`;
    };

    if (options.only.includes('redis-stop'))
      await record(
        'Redis stopped',
        'SIGKILL to the drill’s redis-server, restarted after (append-only file)',
        async () => {
          redis.kill('SIGKILL');
          await sleep(500);
        },
        () => userReadAndWrite(),
        20_000,
        async () => {
          redis = await startRedis();
        },
      );

    if (options.only.includes('redis-hang'))
      await record(
        'Redis hanging',
        'SIGSTOP to redis-server (accepts TCP, answers nothing), SIGCONT after',
        async () => {
          redis.kill('SIGSTOP');
          await sleep(300);
        },
        () => userReadAndWrite(),
        20_000,
        () => {
          redis.kill('SIGCONT');
        },
      );

    if (pgProxy && options.only.includes('postgres-stop')) {
      const proxy = pgProxy;
      await record(
        'PostgreSQL stopped',
        'the drill’s TCP proxy to PostgreSQL closes every connection and stops listening (ECONNREFUSED), listens again after',
        async () => {
          await proxy.stop();
          await sleep(300);
        },
        () => userReadAndWrite(),
        20_000,
        () => proxy.restore(),
      );
    }

    if (pgProxy && options.only.includes('postgres-hang')) {
      const proxy = pgProxy;
      await record(
        'PostgreSQL hanging',
        'the drill’s TCP proxy keeps connections open and accepts new ones but forwards nothing, forwards again after',
        async () => {
          proxy.hang();
          await sleep(300);
        },
        () => userReadAndWrite(),
        20_000,
        () => proxy.restore(),
      );
    }

    if (options.only.includes('discord-down'))
      await record(
        'Discord unreachable',
        'the simulator (REST, gateway, OAuth2) stopped with SIGKILL, restarted on its port after',
        async () => {
          sim.child.kill('SIGKILL');
          await sleep(500);
        },
        async () => {
          const fresh = new User(url, () => simUrl);
          const signIn = await fresh.signIn(`drill_new_${++userCounter}`);
          const read = await user.get('/api/auth/user');
          const servers = await user.get('/api/servers');
          return `sign-in: ${signIn}; signed-in read GET /api/auth/user: ${describe(read)}; Discover GET /api/servers: ${describe(servers)}`;
        },
        75_000,
        async () => {
          sim = await startSim();
          await product.waitForLine(/gateway session resumed|new session ready|bot: connected as/, 60_000);
        },
      );

    if (options.only.includes('stripe-down'))
      await record(
        'Stripe unreachable',
        'the Stripe fake stopped (SIGKILL), restarted on its port after',
        async () => {
          stripe.child.kill('SIGKILL');
          await sleep(300);
        },
        async () => {
          const buy = await user.post('/api/create-payment-intent', { packageType: 'small' });
          const buyAgain = await user.post('/api/create-payment-intent', { packageType: 'medium' });
          return `buyer POST /api/create-payment-intent: ${describe(buy)}; again: ${describe(buyAgain)}`;
        },
        5_000,
        async () => {
          stripe = await startStripe();
        },
      );

    if (options.only.includes('clock-jump')) {
      const coins = async () => {
        const res = await user.get('/api/auth/user');
        try {
          return (JSON.parse(res.body) as { coins: string }).coins;
        } catch {
          return describe(res);
        }
      };
      const webhookAnswers = async () => {
        const res = await timedFetch(`${url}/metrics`, { headers: MONITORING });
        return (
          res.body
            .split('\n')
            .filter((l) => /^coinsync_http_requests_total\{/.test(l) && /\/api\/stripe\/webhook/.test(l))
            .map((l) => /status="(\d+)"[^ ]* (\d+)/.exec(l))
            .filter((m): m is RegExpExecArray => m !== null)
            .map((m) => `${m[1]} ×${m[2]}`)
            .join(', ') || 'none'
        );
      };
      await record(
        'Clock jump > 5 min (the product’s clock 10 min ahead of Stripe’s)',
        'the Stripe fake restarted on its port signing webhooks 600 s behind (FAKE_STRIPE_SIGNING_SKEW_SECONDS=-600); a purchase confirmed at it; the product’s Stripe reconciliation job every 10 s (STRIPE_RECONCILE_SECONDS=10)',
        async () => {
          stripe.child.kill('SIGKILL');
          await sleep(300);
          stripe = await startStripe(-600);
        },
        async () => {
          const before = await coins();
          const created = await user.post('/api/create-payment-intent', { packageType: 'small' });
          const clientSecret = (JSON.parse(created.body || '{}') as { clientSecret?: string }).clientSecret;
          if (!clientSecret) return `buyer POST /api/create-payment-intent: ${describe(created)}`;
          const intentId = clientSecret.split('_secret_')[0]!;
          // What Stripe.js does in the buyer's browser; then the buyer closes the tab (no sync).
          const confirm = await timedFetch(
            `http://127.0.0.1:${stripePort}/v1/payment_intents/${intentId}/confirm`,
            {
              method: 'POST',
              headers: {
                authorization: `Bearer ${STRIPE_SECRET_KEY}`,
                'content-type': 'application/x-www-form-urlencoded',
              },
              body: 'payment_method=pm_card_visa',
            },
          );
          const paidAt = Date.now();
          // The fake delivers (and retries 3 times over about 2 s) the signed payment_intent.succeeded;
          // the buyer has closed the tab. Coins come from the reconciliation job (its log line says so).
          let now = before;
          while (now === before && Date.now() - paidAt < 45_000) {
            await sleep(500);
            now = await coins();
          }
          const creditedAfter = ((Date.now() - paidAt) / 1000).toFixed(0);
          await sleep(Math.max(0, paidAt + 4000 - Date.now()));
          const webhooks = await webhookAnswers();
          // Two more runs of the job and the return page's sync: nothing more.
          await sleep(21_000);
          const later = await coins();
          const sync = await user.post(`/api/payments/${intentId}/sync`, {});
          const final = await coins();
          const credits = Math.round((Number(final) - Number(before)) * 100) / 100;
          return (
            `confirm at Stripe: ${describe(confirm)}; the product's webhook answers: ${webhooks}; balance ${before} → ${now} ${creditedAfter} s after paying; ` +
            `${later} after two more runs; sync POST /api/payments/…/sync: ${describe(sync)}; ${final} at the end (credited ${credits.toFixed(2)}, once)`
          );
        },
        3_000,
        async () => {
          stripe.child.kill('SIGKILL');
          await sleep(300);
          stripe = await startStripe();
        },
      );
    }

    if (options.only.includes('disk-full')) {
      const filler = path.join(diskDir, 'filler');
      const fill = (leaveBytes: number) => {
        // Grows the filler until the file system has leaveBytes left (tmpfs answers ENOSPC at the end).
        const fd = openSync(filler, 'a');
        const chunk = Buffer.alloc(1024 * 1024);
        try {
          for (;;) {
            const free = statfsFree(diskDir);
            if (free <= leaveBytes) break;
            const n = Math.min(chunk.length, free - leaveBytes);
            writeFileSync(fd, chunk.subarray(0, Math.max(4096, n)));
          }
        } catch {
          // ENOSPC: full.
        } finally {
          closeSync(fd);
        }
      };
      const pid = product.child.pid!;
      if (tmpfs)
        await record(
          'Disk nearly full (SQLite)',
          'database on an 80 MB tmpfs; a filler file leaves 32 MB (the limit is 64 MB)',
          () => {
            fill(32 * 1024 * 1024);
          },
          () => userReadAndWrite('bonus'),
          20_000,
          () => {
            rmSync(filler, { force: true });
          },
        );
      await record(
        'Disk full (SQLite)',
        tmpfs
          ? 'database on an 80 MB tmpfs; a filler file leaves 0 bytes'
          : 'no tmpfs (not root): the product’s RLIMIT_FSIZE lowered (prlimit) to its database files’ sizes (EFBIG on any growth; free space looks fine)',
        () => {
          if (tmpfs) fill(0);
          else {
            const biggest = Math.max(
              ...['', '-wal', '-shm'].map((s) =>
                existsSync(databasePath + s) ? statSync(databasePath + s).size : 0,
              ),
            );
            spawnSync('prlimit', ['--pid', String(pid), `--fsize=${biggest}:`]); // the soft limit only: raising it back needs no privilege
          }
        },
        async () => {
          const signIns: string[] = [];
          for (let i = 0; i < 3; i++)
            signIns.push(await new User(url, () => simUrl).signIn(`drill_disk_${++userCounter}`));
          // Many writes, so a WAL with room left fills too.
          let last = '';
          for (let i = 0; i < 20; i++)
            last = describe(await user.post('/api/hourly/claim', { type: 'regular' }));
          const rest = await userReadAndWrite();
          return `3 new sign-ins: ${[...new Set(signIns)].join(' / ')}; POST /api/hourly/claim ×20, last: ${last}; ${rest}`;
        },
        20_000,
        () => {
          if (tmpfs) rmSync(filler, { force: true });
          else spawnSync('prlimit', ['--pid', String(pid), '--fsize=unlimited:']);
        },
      );
    }
    return observations;
  } finally {
    killAll();
    await sleep(300);
    await pgProxy?.close();
    if (pgCreated) {
      const admin = new pg.Client({ connectionString: pgAdminUrl });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${pgDatabase} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
    if (tmpfs) spawnSync('umount', ['-l', diskDir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

function statfsFree(dir: string): number {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
}

export function table(observations: Observation[]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const rows = observations.map(
    (o) =>
      `| ${esc(o.fault)} | ${esc(o.readiness)} | ${esc(o.metrics)} | ${esc(o.logs)}${o.plainLines ? ` (+${o.plainLines} non-JSON lines)` : ''} | ${esc(o.users)} | ${esc(o.recovered)} |`,
  );
  return [
    '| Fault | Readiness | Metrics | Logs (WARN/ERROR) | Users | Back |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  process.once('SIGINT', () => {
    killAll();
    process.exit(130);
  });
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      killAll();
      process.exit(1);
    },
  );
}

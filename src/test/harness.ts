import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ManualClock } from '../clock.ts';
import { createLogger } from '../logger.ts';
import { startServer, type RunningServer, type StartOptions } from '../server.ts';
import { GUILD_MEMBERS_INTENT, startDiscordSimulator, type DiscordSimulator } from '../sim/discord/index.ts';
import { DEFAULT_RATE_LIMITS, type RateLimitConfig } from '../sim/discord/rate-limits.ts';
import * as ledger from '../ledger/index.ts';
import type { EngineKind } from '../db/engine.ts';
import { testEngine } from './db.ts';
import { createPgTestDatabase, type PgTestDatabase } from './pg.ts';
import type { ApiUser } from '../shared/api-types.ts';
import { Agent } from 'undici';
import type { SQL } from 'drizzle-orm';
import { settleDiscover } from '../joins/discover-campaigns.ts';

// Starts the real product on a random port against a standalone Discord simulator, with a fresh
// migrated SQLite file and a manual clock. Nothing is mocked: tests talk HTTP like a browser would.

/**
 * Real Discord credentials need their own secrets whatever NODE_ENV says (src/config.ts): the tests'
 * configuration (real-mode, pointed at the simulator) carries these.
 */
export const TEST_SECRETS = {
  SESSION_SECRET: 'test-session-secret-0123456789-abcdefghijklmnopqrstuv',
  TOKEN_ENCRYPTION_KEY: 'ef'.repeat(32),
} as const;

export const TEST_DISCORD = {
  clientId: '910000000000000001',
  clientSecret: 'test-client-secret',
  botToken: 'test-bot-token',
} as const;

/**
 * Discord's bucket sizes with every window a twentieth as long: the product still meets 429s and
 * X-RateLimit-* headers and waits them out through @discordjs/rest, but a test that empties a
 * 5-second bucket waits 250 ms instead of 5 s (decision 025). Tests of the limits themselves set
 * their own numbers (src/sim/discord/rate-limits.test.ts, src/bot/reconcile-storm.test.ts).
 */
export const TEST_RATE_LIMITS: RateLimitConfig = {
  ...DEFAULT_RATE_LIMITS,
  globalWindowMs: DEFAULT_RATE_LIMITS.globalWindowMs / 20,
  buckets: Object.fromEntries(
    Object.entries(DEFAULT_RATE_LIMITS.buckets).map(([name, b]) => [
      name,
      { limit: b.limit, windowMs: b.windowMs / 20 },
    ]),
  ),
};

export interface TestApp {
  url: string;
  server: RunningServer;
  sim: DiscordSimulator & { url: string };
  clock: ManualClock;
  logLines: string[];
  /**
   * Signs in through the simulator's OAuth2 flow (login_hint) and returns a cookie-carrying client.
   * Each client connects from its own loopback address (127.0.x.y) unless `address` is given.
   */
  signIn(username: string, options?: { address?: string }): Promise<TestClient>;
  /** A signed-out client, from 127.0.0.1 unless `address` is given. */
  anonymous(options?: { address?: string }): TestClient;
  /** Until Discover's list holds every write committed so far (clients do this before reading it). */
  discoverSettled(): Promise<void>;
  /** The engine this app runs on (TEST_DB, or the `engine` option). */
  engine: EngineKind;
  /** Synchronous SQLite check (unconverted suites; throws on PostgreSQL). */
  assertLedger(): void;
  /**
   * Raw SQL on either engine, in a transaction of the store (sees every commit): the rows. For looking
   * at rows no API shows; write it in the SQL both engines read alike (quote camelCase aliases).
   */
  query<T = Record<string, unknown>>(statement: SQL): Promise<T[]>;
  /** A raw SQL statement that returns no rows (INSERT/UPDATE/DELETE), on either engine: rows changed. */
  exec(statement: SQL): Promise<number>;
  /** The ledger invariant through the async store, on either engine (converted suites). */
  checkLedger(): Promise<void>;
  close(): Promise<void>;
}

export interface TestResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

// Linux routes all of 127.0.0.0/8 to loopback: a client bound to 127.0.3.7 reaches the server on
// 127.0.0.1 and express sees 127.0.3.7 as req.ip, so tests get distinct addresses without trusting a
// proxy header (the same-address rule and the per-address limits read the address as express sees it).
const agents = new Map<string, Agent>();
function agentFor(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return agent;
}
let nextAddress = 0;
/** A loopback address no other client of this test process has. */
export function freshLoopbackAddress(): string {
  nextAddress += 1;
  return `127.0.${1 + Math.floor(nextAddress / 250)}.${1 + (nextAddress % 250)}`;
}

const DISCOVER_READ = /^\/api\/servers(\/featured)?(\?|$)/;

export class TestClient {
  readonly cookies = new Map<string, string>();
  user: ApiUser | undefined;

  constructor(
    readonly baseUrl: string,
    /** The loopback address this client connects from (what the server sees as req.ip). */
    readonly address = '127.0.0.1',
    /**
     * Runs before a read of Discover's list (GET /api/servers, /api/servers/featured): waits until the
     * list holds every write committed so far. On PostgreSQL the list learns of commits by notification,
     * a few ms later; a member's next request comes later than that, a test's next line does not.
     */
    private readonly beforeDiscoverRead?: () => Promise<void>,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Raw request; never follows redirects so tests can see them. */
  async raw(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && url.startsWith(this.baseUrl)) headers.set('cookie', this.cookieHeader);
    const res = await fetch(url, {
      ...init,
      headers,
      redirect: 'manual',
      ...(this.address === '127.0.0.1' ? {} : { dispatcher: agentFor(this.address) }),
    });
    if (url.startsWith(this.baseUrl)) this.remember(res);
    return res;
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    if (method === 'GET' && DISCOVER_READ.test(path)) await this.beforeDiscoverRead?.();
    const res = await this.raw(path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, body);
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }

  /** Current balance in hundredths, read through the API. */
  async balanceCents(): Promise<number> {
    const res = await this.get<ApiUser>('/api/auth/user');
    if (res.status !== 200) throw new Error(`not signed in: ${res.status}`);
    return Math.round(Number(res.body.coins) * 100);
  }
}

/** The requests a browser makes while signing in; none follows a redirect. */
export interface SignInRequests {
  /** To the product, with the browser's cookies for it. */
  product(url: string): Promise<Response>;
  /** To the Discord simulator's authorize page (another site). */
  simulator(url: string): Promise<Response>;
}

/**
 * Walks the authorization-code flow exactly as a browser does, following each redirect by hand: the
 * product at `base` (an origin, or '' where `product` takes paths) → the simulator's authorize page
 * (login_hint) → the callback. Resolves with the signed-in user.
 */
export async function walkSimulatorSignIn(
  requests: SignInRequests,
  base: string,
  username: string,
): Promise<ApiUser> {
  const start = await requests.product(`${base}/api/auth/discord`);
  const authorize = start.headers.get('location');
  if (start.status !== 302 || !authorize) throw new Error(`sign-in did not redirect: ${start.status}`);
  const withHint = new URL(authorize);
  withHint.searchParams.set('login_hint', username);
  const consent = await requests.simulator(withHint.toString());
  const callback = consent.headers.get('location');
  if (!callback)
    throw new Error(`simulator did not redirect back: ${consent.status} ${await consent.text()}`);
  const done = await requests.product(callback);
  if (done.status !== 302 || done.headers.get('location') !== '/') {
    throw new Error(`callback failed: ${done.status} ${done.headers.get('location')} ${await done.text()}`);
  }
  const me = await requests.product(`${base}/api/auth/user`);
  if (me.status !== 200) throw new Error(`not signed in after callback: ${me.status}`);
  return (await me.json()) as ApiUser;
}

/** Signs `client` in through the simulator (walkSimulatorSignIn), its one cookie jar used for both sites. */
export async function signInThroughSimulator(client: TestClient, username: string): Promise<ApiUser> {
  const visit = (url: string) => client.raw(url);
  client.user = await walkSimulatorSignIn({ product: visit, simulator: visit }, '', username);
  return client.user;
}

export async function startTestApp(
  options: Omit<StartOptions, 'env' | 'clock' | 'port'> & {
    env?: Record<string, string>;
    /**
     * sqlite (default) or pg: a fresh PostgreSQL database from PG_TEST_URL, given as DATABASE_URL.
     * Defaults to TEST_DB.
     */
    engine?: EngineKind;
    /**
     * Whether the simulated application has the Server Members intent enabled in Discord's portal
     * (default true: the tests turn it on, as the demo does). false: Discord refuses it (4014), as for
     * a new application or after a refused review; the bot then runs without it (issue 26).
     */
    discordMembersIntent?: boolean;
  } = {},
): Promise<TestApp> {
  const engine = options.engine ?? testEngine();
  const dir = mkdtempSync(path.join(tmpdir(), 'coinsync-test-'));
  let pgDatabase: PgTestDatabase | undefined;
  if (engine === 'pg') pgDatabase = await createPgTestDatabase();
  const clock = new ManualClock();
  // The simulator reads the same clock, so a new simulated account is 30 days old on the test clock
  // (or as old as a test asks: sim.state.createUser({ accountAgeMs }) / POST /control/users {accountAgeDays}).
  const sim = await startDiscordSimulator({ port: 0, ...TEST_DISCORD, now: () => clock.now() });
  sim.state.rateLimits.configure(TEST_RATE_LIMITS);
  // Discord's anti-spam on new DM channels (40003) is off: tests DM dozens of members at one clock time;
  // src/discord/dm-open-pause.test.ts turns it on.
  sim.state.dmOpenLimit = null;
  // Discord's max_concurrency for large bots: every shard identifies at once instead of @discordjs/ws
  // waiting 5 s between shards (max_concurrency 1, a small bot's). Decision 025.
  sim.state.gateway.maxConcurrency = 16;
  // A new application has no privileged intent (the simulator's default); the tests' owner enabled it.
  sim.state.gateway.allowedPrivilegedIntents =
    options.discordMembersIntent === false ? 0 : GUILD_MEMBERS_INTENT;
  const logger = createLogger('silent');
  const server = await startServer({
    port: 0,
    clock,
    logger,
    signInRateLimit: 10_000,
    membershipGraceMs: 0,
    // The limiters stay in the path (and in Redis when set) but out of the way of tests that race
    // dozens of writes; src/http/write-limits.test.ts sets small numbers.
    writeLimits: {
      perUser: {
        submit: 10_000,
        promote: 10_000,
        join: 10_000,
        claim: 10_000,
        social: 10_000,
        payment: 10_000,
      },
      perAddress: 100_000,
    },
    redisPrefix: `coinsync-test:${path.basename(dir)}:`,
    background: false,
    ...options,
    env: {
      NODE_ENV: 'test',
      DATABASE_PATH: path.join(dir, 'test.db'),
      DISCORD_CLIENT_ID: TEST_DISCORD.clientId,
      ...TEST_SECRETS,
      DISCORD_CLIENT_SECRET: TEST_DISCORD.clientSecret,
      DISCORD_BOT_TOKEN: TEST_DISCORD.botToken,
      DISCORD_BASE_URL: sim.url,
      DISCORD_CDN_URL: 'https://cdn.discordapp.com',
      LOG_LEVEL: 'silent',
      // The join pace (decision 038) is off: tests join dozens of servers at one clock time; join-pace.test.ts sets it.
      JOIN_PACE_PER_HOUR: '0',
      JOIN_PACE_PER_DAY: '0',
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      ...(pgDatabase ? { DATABASE_URL: pgDatabase.url } : {}),
      ...options.env,
    },
  }).catch(async (err: unknown) => {
    await sim.close();
    await pgDatabase?.dispose();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const url = server.url;
  // The application's registered redirect URI: the simulator's authorize page redirects nowhere else.
  sim.state.redirectUris.add(`${url}/api/auth/discord/callback`);
  const settled = () => settleDiscover(server.ctx.store);
  return {
    url,
    server,
    sim,
    clock,
    logLines: logger.lines,
    async signIn(username, signInOptions = {}) {
      const client = new TestClient(url, signInOptions.address ?? freshLoopbackAddress(), settled);
      await signInThroughSimulator(client, username);
      return client;
    },
    anonymous: (anonymousOptions = {}) => new TestClient(url, anonymousOptions.address, settled),
    discoverSettled: settled,
    engine,
    assertLedger: () => ledger.assertLedgerInvariantSync(server.ctx.sqlite),
    checkLedger: () => ledger.assertLedgerInvariant(server.ctx.store),
    query: <T>(statement: SQL) =>
      server.ctx.store.transaction(async (tx) =>
        tx.kind === 'sqlite' ? tx.db.all<T>(statement) : ((await tx.db.execute(statement)).rows as T[]),
      ),
    exec: (statement: SQL) =>
      server.ctx.store.transaction(async (tx) =>
        tx.kind === 'sqlite'
          ? tx.db.run(statement).changes
          : ((await tx.db.execute(statement)).rowCount ?? 0),
      ),
    async close() {
      await server.close();
      await sim.close();
      await pgDatabase?.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

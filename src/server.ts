import { hashLegacyWelcomeGrants } from './users/discord-id-hash.ts';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config, type Role, type ShardPlan } from './config.ts';
import { openDatabase, type Database_ } from './db/client.ts';
import { createSqliteStore, type PgStore, type SqliteStore } from './db/engine.ts';
import type { Db } from './db/client.ts';
import type { Database as SqliteConnection } from 'better-sqlite3';
import { systemClock, type Clock } from './clock.ts';
import { createLogger, type Logger } from './logger.ts';
import { DiscordApi } from './discord/discord-api.ts';
import { createStripeClient } from './payments/stripe-client.ts';
import { createSessionSetup, type SessionSetup } from './auth/session.ts';
import { createApp } from './app.ts';
import type { Express, Router } from 'express';
import type { NodeHandler } from './http/fast-path.ts';
import type { AppContext } from './context.ts';
import type { DiscordSimulator } from './demo/simulator.ts';
import { NO_BACKGROUND, RECONCILE_EVERY_MS, startBackground, type Background } from './background.ts';
import { createBotHealthApp } from './ops/bot-health-app.ts';
import { describeMembersIntent, type BotOptions } from './bot/bot.ts';
import type { WriteLimitOptions } from './http/write-limits.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { createReadiness, startReadinessRefresh, type ReadinessCheck } from './ops/readiness.ts';
import { startingResponder } from './ops/starting.ts';
import { createMemoryEventBus, createRedisEventBus, type LiveEventBus } from './events/event-bus.ts';
import { applyServerLimits, SERVER_TIMEOUTS, type LimitStats } from './http/server-limits.ts';

export interface RunningServer {
  /** The site's public URL; for ROLE=bot the address of its health checks. */
  url: string;
  config: Config;
  ctx: AppContext;
  http: http.Server;
  /** The SQLite database (undefined on PostgreSQL: ctx.store is the data layer on both). */
  database: Database_ | undefined;
  sessions: SessionSetup;
  simulator: DiscordSimulator | undefined;
  background: Background;
  /** Health of every background job and timer (what /api/ready's job checks read). */
  jobs: JobMonitor;
  /** Every request through the full Express stack (the fast path's equivalence tests serve it too). */
  app: Express;
  /** The listener the server runs: the signed-in fast path in front of `app` (decision 033). */
  handler: NodeHandler;
  /** Open connections and request bodies in flight, and how many were refused (decision 040). */
  limits: LimitStats;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  logger?: Logger;
  /** Port to listen on; overrides PORT. 0 picks a free port (tests). */
  port?: number;
  host?: string;
  signInRateLimit?: number;
  /** See AppContext.options.membershipGraceMs (tests: 0). */
  membershipGraceMs?: number;
  writeLimits?: WriteLimitOptions | false;
  redisPrefix?: string;
  webDist?: string;
  /** See CreateAppOptions.ssrDist. */
  ssrDist?: string;
  /** Set false to start without the bot and periodic jobs (some tests drive them by hand). */
  background?: boolean;
  /** See AppContext.options.liveHeartbeatMs. */
  liveHeartbeatMs?: number;
  /** See AppContext.options.liveHeartbeatSlice. */
  liveHeartbeatSlice?: number;
  /** false: no signed-in fast path (overrides FAST_PATH; the fast path's equivalence tests). */
  fastPath?: boolean;
  /** Bot timings (audit-log looks); tests that exercise late audit entries set them. */
  bot?: Pick<BotOptions, 'auditLogDelayMs' | 'auditLogRecheckMs'>;
  /**
   * Tests: compose this process as `role` (and its shards) on its own SQLite file, bypassing ROLE's
   * configuration checks, to check what each role runs. Production chooses with ROLE.
   */
  role?: Role;
  shards?: ShardPlan;
  /**
   * Tests: mount demo mode's payments (the fake Stripe and its Stripe.js stand-in, src/demo/stripe.ts)
   * although this configuration is not a demo. Never in production.
   */
  demoStripe?: boolean;
}

/**
 * Builds and starts the product by role (decision 028). ROLE=all (the default): everything in one
 * process — database, sessions, API + SPA, the Discord simulator when in demo mode, and the bot and
 * periodic jobs. ROLE=web: the API, dashboard and live events, no bot and no jobs. ROLE=bot: the
 * gateway shards, interaction handlers and periodic jobs, and only /api/health, /api/ready and
 * /metrics on BOT_HEALTH_PORT. Listening happens first so a random
 * port (tests) is known before the OAuth callback URL is built.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const preliminary = loadConfig(env);
  const role = options.role ?? preliminary.role;
  const listening = await listenFirst(preliminary, role, options);
  const config = loadConfig(
    role === 'bot'
      ? { ...env, BOT_HEALTH_PORT: String(listening.port) }
      : {
          ...env,
          PORT: String(listening.port),
          PUBLIC_URL:
            env.PUBLIC_URL ?? (listening.anyPort ? `http://127.0.0.1:${listening.port}` : undefined),
        },
  );
  config.role = role;
  if (options.shards) config.shards = options.shards;
  const logger = options.logger ?? createLogger(config.logLevel, undefined, { format: config.logFormat });
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const jobs = new JobMonitor(() => clock.now());
  const engine = await openEngine(config, options, logger, jobs, listening);
  const demo = await startDemo(config, listening.server, logger, clock, options);
  const ctx = createContext(config, engine, clock, logger, options);
  // Readiness reads the bot, which starts after the app is built.
  const started: { background?: Background } = {};
  const readiness = readinessFor(ctx, engine.sessions, jobs, startedAt, options, started);
  // The gauges (coinsync_ready) are refreshed on their own schedule, not only when /api/ready is polled.
  const readinessRefresh = startReadinessRefresh(readiness, { logger });
  const { app, handler } = requestHandler(ctx, readiness, engine.sessions, demo.preRoutes, options);
  listening.serve(handler);

  if (config.demoSeed && demo.simulator && !config.production && role === 'all') {
    const { seedDemo } = await import('./demo/seed.ts');
    await seedDemo(ctx, demo.simulator);
  }
  const background =
    options.background === false ? NO_BACKGROUND : await startBackground(ctx, { jobs, bot: options.bot });
  started.background = background;

  const { server } = listening;
  let closed = false;
  return {
    // A bot process's address is that of its health checks.
    url: role === 'bot' ? `http://${healthHost(config.host)}:${listening.port}` : config.publicUrl,
    config,
    ctx,
    http: server,
    database: engine.database,
    sessions: engine.sessions,
    simulator: demo.simulator,
    background,
    jobs,
    app,
    handler,
    limits: listening.limits,
    async close() {
      if (closed) return;
      closed = true;
      readinessRefresh.stop();
      await background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await demo.simulator?.close();
      await demo.stripe?.close();
      await engine.events.close();
      await engine.sessions.close();
      await engine.store.close();
      engine.database?.close();
    },
  };
}

interface Listening {
  server: http.Server;
  port: number;
  /** Listening on a port the system chose (PORT 0: tests). */
  anyPort: boolean;
  limits: LimitStats;
  /** What the start-up responder says start-up is doing. */
  setPhase(phase: string): void;
  /** Replaces the start-up responder with the product's listener. */
  serve(handler: NodeHandler): void;
}

/**
 * Listens before anything is opened, with a placeholder answering (the bound port never leaves a client
 * hanging), so a random port (tests) is known before the OAuth callback URL is built. A bot process
 * listens only for its health checks, on BOT_HEALTH_PORT.
 */
async function listenFirst(preliminary: Config, role: Role, options: StartOptions): Promise<Listening> {
  const server = http.createServer({ connectionsCheckingInterval: SERVER_TIMEOUTS.checkEveryMs });
  // Time limits, the connection cap and the cap on request bodies in flight (decision 040).
  const limits = applyServerLimits(server, preliminary.limits);
  let phase = 'opening the database';
  const starting = startingResponder(() => phase);
  server.on('request', starting);
  const port = options.port ?? (role === 'bot' ? preliminary.botHealthPort : preliminary.port);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? preliminary.host, () => resolve());
  });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    anyPort: port === 0,
    limits: limits.stats,
    setPhase: (next) => (phase = next),
    serve(handler) {
      server.off('request', starting);
      server.on('request', limits.wrap(handler));
    },
  };
}

interface Engine {
  /** The SQLite database (undefined on PostgreSQL). */
  database: Database_ | undefined;
  store: SqliteStore | PgStore;
  sessions: SessionSetup;
  events: LiveEventBus;
}

/**
 * One engine per process (decision 028): PostgreSQL at DATABASE_URL — no SQLite file is opened then —
 * or the SQLite file at DATABASE_PATH; then the sessions and the live-event bus. Refusing to start
 * (e.g. a damaged database) releases the port and the file before saying why.
 */
async function openEngine(
  config: Config,
  options: StartOptions,
  logger: Logger,
  jobs: JobMonitor,
  listening: Listening,
): Promise<Engine> {
  let database: Database_ | undefined;
  let store: SqliteStore | PgStore | undefined;
  try {
    if (config.database.kind === 'pg') {
      // Several processes may start at once: migrations run under an advisory lock (src/db/pg-client.ts).
      listening.setPhase('opening PostgreSQL (migrations)');
      // Loaded here only: a process on SQLite never loads node-postgres (src/db/pg-lib.ts).
      const { openPgStore } = await import('./db/pg-store.ts');
      store = await openPgStore(config.database.url);
    } else {
      listening.setPhase('checking the database (PRAGMA quick_check)');
      database = openDatabase(config.databasePath);
      store = createSqliteStore(database, config.databasePath);
    }
    // welcome_grants rows from before the keyed hash: their raw Discord ids become hashes (issue 27 item 4).
    listening.setPhase('hashing Discord ids in welcome_grants');
    await hashLegacyWelcomeGrants(store, config.discordIdHashKey);
    listening.setPhase('setting up sessions');
    const sessions = await createSessionSetup(config, store, {
      redisPrefix: options.redisPrefix ?? `${config.redisPrefix}sess:`,
      logger,
      redisTimeoutMs: config.redisTimeoutMs,
      onWaiting: (reason) => listening.setPhase(reason),
      jobs,
    });
    listening.setPhase('setting up live events');
    const events = sessions.redis
      ? await createRedisEventBus({
          redis: sessions.redis,
          prefix: sessions.redisPrefix,
          timeoutMs: config.redisTimeoutMs,
          logger,
        })
      : createMemoryEventBus(logger);
    return { database, store, sessions, events };
  } catch (err) {
    listening.server.closeAllConnections();
    await new Promise<void>((resolve) => listening.server.close(() => resolve()));
    await store?.close();
    database?.close();
    throw err;
  }
}

/**
 * Demo mode's Discord simulator and payments (the fake Stripe and its Stripe.js stand-in when no
 * Stripe keys are set), loaded on demand from src/demo and mounted before everything else. Production
 * never mounts them (loadConfig refuses production without real Discord credentials; this is the
 * second lock), nor a process other than ROLE=all.
 */
async function startDemo(
  config: Config,
  server: http.Server,
  logger: Logger,
  clock: Clock,
  options: StartOptions,
): Promise<{
  simulator?: DiscordSimulator;
  stripe?: { close(): Promise<void> };
  preRoutes: { path: string; router: Router }[];
}> {
  const preRoutes: { path: string; router: Router }[] = [];
  if (config.production || config.role !== 'all') return { preRoutes };
  let simulator: DiscordSimulator | undefined;
  if (config.discord.simulatorPath) {
    const { startDemoSimulator } = await import('./demo/simulator.ts');
    const demo = startDemoSimulator(config, server, logger);
    if (demo) {
      simulator = demo.simulator;
      preRoutes.push(demo.route);
    }
  }
  // Before the Stripe client is built.
  let stripe: { close(): Promise<void> } | undefined;
  if (config.discord.simulatorPath || options.demoStripe) {
    const { startDemoStripe } = await import('./demo/stripe.ts');
    const payments = await startDemoStripe(config, logger, {
      now: () => clock.now(),
      force: options.demoStripe === true,
    });
    if (payments) {
      stripe = payments.fake;
      preRoutes.push(payments.route);
    }
  }
  return { simulator, stripe, preRoutes };
}

function createContext(
  config: Config,
  { database, store, sessions, events }: Engine,
  clock: Clock,
  logger: Logger,
  options: StartOptions,
): AppContext {
  return {
    config,
    db: database?.db ?? notOnPostgres<Db>('db'),
    sqlite: database?.sqlite ?? notOnPostgres<SqliteConnection>('sqlite'),
    store,
    clock,
    logger,
    discord: new DiscordApi({
      baseUrl: config.discord.baseUrl,
      botToken: config.discord.botToken,
      logger,
      now: () => clock.now(),
    }),
    stripe: createStripeClient(config),
    sessions: {
      kind: sessions.kind,
      redis: sessions.redis,
      redisPrefix: sessions.redisPrefix,
      clearCookie: sessions.clearCookie,
    },
    events,
    options: {
      signInRateLimit: options.signInRateLimit,
      writeLimits: options.writeLimits,
      membershipGraceMs: options.membershipGraceMs,
      liveHeartbeatMs: options.liveHeartbeatMs,
      liveHeartbeatSlice: options.liveHeartbeatSlice,
    },
  };
}

/** What GET /api/ready checks; the bot and its reconciliation are read from `started` once they run. */
function readinessFor(
  ctx: AppContext,
  sessions: SessionSetup,
  jobs: JobMonitor,
  startedAt: number,
  options: StartOptions,
  started: { background?: Background },
): ReadinessCheck {
  const { config } = ctx;
  return createReadiness({
    store: ctx.store,
    now: () => ctx.clock.now(),
    startedAt,
    pingRedis: sessions.pingRedis,
    botOff:
      config.role === 'web'
        ? 'ROLE=web'
        : !config.botEnabled
          ? 'BOT_ENABLED=false'
          : options.background === false
            ? 'background jobs not started'
            : undefined,
    botClient: () => started.background?.bot?.client ?? null,
    membersIntent: () => {
      const bot = started.background?.bot;
      return bot ? describeMembersIntent(bot.membersIntent()) : null;
    },
    jobs,
    reconcile: {
      jobs: () => started.background?.reconcileJobs ?? [],
      maxAgeMs: 3 * Math.max(RECONCILE_EVERY_MS, config.memberSweepMs),
    },
    discordBotToken: () => ctx.discord.botTokenState(),
    ...(config.database.kind === 'pg'
      ? {}
      : { databaseDir: path.dirname(path.resolve(config.databasePath)) }),
  });
}

/** ROLE=bot serves only its health checks and metrics; ROLE=all and ROLE=web the API and dashboard. */
function requestHandler(
  ctx: AppContext,
  readiness: ReadinessCheck,
  sessions: SessionSetup,
  preRoutes: { path: string; router: Router }[],
  options: StartOptions,
): { app: Express; handler: NodeHandler } {
  if (ctx.config.role === 'bot') {
    const app = createBotHealthApp(ctx, readiness);
    return {
      app,
      handler: (req, res) => {
        app(req, res);
      },
    };
  }
  return createApp(ctx, {
    sessionMiddleware: sessions.middleware,
    session: sessions.access,
    fastPath: options.fastPath ?? ctx.config.fastPath,
    preRoutes,
    webDist: options.webDist,
    ...(options.ssrDist === undefined ? {} : { ssrDist: options.ssrDist }),
    readiness,
  });
}

/**
 * The synchronous SQLite handles (`ctx.db`, `ctx.sqlite`) do not exist on PostgreSQL. The product
 * reaches its data through `ctx.store` on both engines (decision 028's conversion is complete); what
 * still reads the handles (a few test kits, the simulation and SQLite-only benches) fails on
 * PostgreSQL here, naming what was used, instead of reading a file nobody else sees.
 */
function notOnPostgres<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_, prop) {
      // Let inspection (await, util.inspect, vitest's printing) see a plain object.
      if (typeof prop === 'symbol' || prop === 'then' || prop === 'toJSON') return undefined;
      throw new Error(
        `ctx.${name}.${prop}: the synchronous SQLite handle does not exist on PostgreSQL; use ctx.store (decision 028)`,
      );
    },
  });
}

/** A host to reach a listening socket at (a wildcard address is reached on loopback). */
function healthHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

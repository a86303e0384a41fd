import { hashLegacyWelcomeGrants } from './users/discord-id-hash.ts';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config, type Role, type ShardPlan } from './config.ts';
import { openDatabase, type Database_ } from './db/client.ts';
import { createSqliteStore, openPgStore, type PgStore, type SqliteStore } from './db/engine.ts';
import type { Db } from './db/client.ts';
import type { Database as SqliteConnection } from 'better-sqlite3';
import { systemClock, type Clock } from './clock.ts';
import { createLogger, type Logger } from './logger.ts';
import { DiscordApi } from './discord/discord-api.ts';
import { createStripeClient } from './payments/stripe-client.ts';
import { createSessionSetup, type SessionSetup } from './auth/session.ts';
import { createApp } from './app.ts';
import type { Express } from 'express';
import type { NodeHandler } from './http/fast-path.ts';
import type { AppContext } from './context.ts';
import type { DiscordSimulator } from './demo/simulator.ts';
import { NO_BACKGROUND, RECONCILE_EVERY_MS, startBackground, type Background } from './background.ts';
import { createBotHealthApp } from './ops/bot-health-app.ts';
import { describeMembersIntent, type BotOptions } from './bot/bot.ts';
import type { WriteLimitOptions } from './http/write-limits.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { createReadiness, startReadinessRefresh } from './ops/readiness.ts';
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
  const server = http.createServer({ connectionsCheckingInterval: SERVER_TIMEOUTS.checkEveryMs });
  // Time limits, the connection cap and the cap on request bodies in flight (decision 040).
  const limits = applyServerLimits(server, preliminary.limits);
  // Until the app is built, a placeholder answers: the bound port never leaves a client hanging.
  let phase = 'opening the database';
  const starting = startingResponder(() => phase);
  server.on('request', starting);
  // A bot process listens only for its health checks, on BOT_HEALTH_PORT.
  const port = options.port ?? (role === 'bot' ? preliminary.botHealthPort : preliminary.port);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? preliminary.host, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  const config = loadConfig(
    role === 'bot'
      ? { ...env, BOT_HEALTH_PORT: String(actualPort) }
      : {
          ...env,
          PORT: String(actualPort),
          PUBLIC_URL: env.PUBLIC_URL ?? (port === 0 ? `http://127.0.0.1:${actualPort}` : undefined),
        },
  );
  config.role = role;
  if (options.shards) config.shards = options.shards;
  const logger = options.logger ?? createLogger(config.logLevel, undefined, { format: config.logFormat });
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const jobs = new JobMonitor(() => clock.now());

  // One engine per process (decision 028): PostgreSQL at DATABASE_URL — no SQLite file is opened
  // then — or the SQLite file at DATABASE_PATH.
  let database: Database_ | undefined;
  let store: SqliteStore | PgStore | undefined;
  let sessions: SessionSetup;
  let events: LiveEventBus;
  try {
    if (config.database.kind === 'pg') {
      // Several processes may start at once: migrations run under an advisory lock (src/db/pg-client.ts).
      phase = 'opening PostgreSQL (migrations)';
      store = await openPgStore(config.database.url);
    } else {
      phase = 'checking the database (PRAGMA quick_check)';
      database = openDatabase(config.databasePath);
      store = createSqliteStore(database, config.databasePath);
    }
    // welcome_grants rows from before the keyed hash: their raw Discord ids become hashes (issue 27 item 4).
    phase = 'hashing Discord ids in welcome_grants';
    await hashLegacyWelcomeGrants(store, config.discordIdHashKey);
    phase = 'setting up sessions';
    sessions = await createSessionSetup(config, store, {
      redisPrefix: options.redisPrefix ?? `${config.redisPrefix}sess:`,
      logger,
      redisTimeoutMs: config.redisTimeoutMs,
      onWaiting: (reason) => (phase = reason),
      jobs,
    });
    phase = 'setting up live events';
    events = sessions.redis
      ? await createRedisEventBus({
          redis: sessions.redis,
          prefix: sessions.redisPrefix,
          timeoutMs: config.redisTimeoutMs,
          logger,
        })
      : createMemoryEventBus(logger);
  } catch (err) {
    // Refusing to start (e.g. a damaged database): release the port and the file before saying why.
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await store?.close();
    database?.close();
    throw err;
  }

  let simulator: DiscordSimulator | undefined;
  let demoStripe: { close(): Promise<void> } | undefined;
  const preRoutes = [];
  // Production never mounts the simulator nor seeds demo data (loadConfig refuses production without
  // real Discord credentials; this is the second lock).
  if (config.discord.simulatorPath && !config.production && role === 'all') {
    // Loaded on demand from src/demo: production code paths never import the simulator.
    const { startDemoSimulator } = await import('./demo/simulator.ts');
    const demo = startDemoSimulator(config, server, logger);
    if (demo) {
      simulator = demo.simulator;
      preRoutes.push(demo.route);
    }
  }
  // Demo payments without Stripe keys (src/demo/stripe.ts): the fake Stripe, mounted like the simulator,
  // before the Stripe client is built. Never in production.
  if ((config.discord.simulatorPath || options.demoStripe) && !config.production && role === 'all') {
    const { startDemoStripe } = await import('./demo/stripe.ts');
    const payments = await startDemoStripe(config, logger, {
      now: () => clock.now(),
      force: options.demoStripe === true,
    });
    if (payments) {
      demoStripe = payments.fake;
      preRoutes.push(payments.route);
    }
  }

  const discord = new DiscordApi({
    baseUrl: config.discord.baseUrl,
    botToken: config.discord.botToken,
    logger,
  });
  const ctx: AppContext = {
    config,
    db: database?.db ?? notOnPostgres<Db>('db'),
    sqlite: database?.sqlite ?? notOnPostgres<SqliteConnection>('sqlite'),
    store,
    clock,
    logger,
    discord,
    stripe: createStripeClient(config),
    sessions: {
      kind: sessions.kind,
      redis: sessions.redis,
      redisPrefix: sessions.redisPrefix,
      cookieName: sessions.cookieName,
    },
    events,
    options: {
      signInRateLimit: options.signInRateLimit,
      writeLimits: options.writeLimits,
      membershipGraceMs: options.membershipGraceMs,
      liveHeartbeatMs: options.liveHeartbeatMs,
    },
  };
  // Readiness reads the bot, which starts after the app is built.
  const started: { background?: Background } = {};
  const readiness = createReadiness({
    store,
    now: () => clock.now(),
    startedAt,
    pingRedis: sessions.pingRedis,
    botOff:
      role === 'web'
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
    discordBotToken: () => discord.botTokenState(),
    ...(config.database.kind === 'pg'
      ? {}
      : { databaseDir: path.dirname(path.resolve(config.databasePath)) }),
  });
  // The gauges (coinsync_ready) are refreshed on their own schedule, not only when /api/ready is polled.
  const readinessRefresh = startReadinessRefresh(readiness, { logger });
  // ROLE=bot serves only its health checks and metrics; ROLE=all and ROLE=web the API and dashboard.
  let app: Express;
  let handler: NodeHandler;
  if (role === 'bot') {
    app = createBotHealthApp(ctx, readiness);
    const healthApp = app;
    handler = (req, res) => {
      healthApp(req, res);
    };
  } else {
    ({ app, handler } = createApp(ctx, {
      sessionMiddleware: sessions.middleware,
      session: sessions.access,
      fastPath: options.fastPath ?? config.fastPath,
      preRoutes,
      webDist: options.webDist,
      ...(options.ssrDist === undefined ? {} : { ssrDist: options.ssrDist }),
      readiness,
    }));
  }
  server.off('request', starting);
  server.on('request', limits.wrap(handler));

  if (config.demoSeed && simulator && !config.production && role === 'all') {
    const { seedDemo } = await import('./demo/seed.ts');
    await seedDemo(ctx, simulator);
  }

  const background =
    options.background === false ? NO_BACKGROUND : await startBackground(ctx, { jobs, bot: options.bot });
  started.background = background;

  let closed = false;
  return {
    // A bot process's address is that of its health checks.
    url: role === 'bot' ? `http://${healthHost(config.host)}:${actualPort}` : config.publicUrl,
    config,
    ctx,
    http: server,
    database,
    sessions,
    simulator,
    background,
    jobs,
    app,
    handler,
    limits: limits.stats,
    async close() {
      if (closed) return;
      closed = true;
      readinessRefresh.stop();
      await background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await simulator?.close();
      await demoStripe?.close();
      await events.close();
      await sessions.close();
      await store.close();
      database?.close();
    },
  };
}

/**
 * The synchronous SQLite handles (`ctx.db`, `ctx.sqlite`) do not exist on PostgreSQL. Until the code
 * that still uses them is converted (src/db/conversion.ts lists it; PostgreSQL is refused at start
 * until then), a use on PostgreSQL throws, naming what was used, instead of reading a file nobody
 * else sees. Goes away with the two fields (decision 028, after step 4's merge).
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

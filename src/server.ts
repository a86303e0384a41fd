import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Database_ } from './db/client.ts';
import { systemClock, type Clock } from './clock.ts';
import { createLogger, type Logger } from './logger.ts';
import { DiscordApi } from './discord/discord-api.ts';
import { createStripeClient } from './payments/stripe-client.ts';
import { createSessionSetup, type SessionSetup } from './auth/session.ts';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';
import type { DiscordSimulator } from './demo/simulator.ts';
import { JOB, RECONCILE_EVERY_MS, startBackground, type Background } from './background.ts';
import type { BotOptions } from './bot/bot.ts';
import type { WriteLimitOptions } from './http/write-limits.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { createReadiness } from './ops/readiness.ts';
import { startingResponder } from './ops/starting.ts';
import { createMemoryEventBus, createRedisEventBus, type LiveEventBus } from './events/event-bus.ts';

export interface RunningServer {
  url: string;
  config: Config;
  ctx: AppContext;
  http: http.Server;
  database: Database_;
  sessions: SessionSetup;
  simulator: DiscordSimulator | undefined;
  background: Background;
  /** Health of every background job and timer (what /api/ready's job checks read). */
  jobs: JobMonitor;
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
  /** Bot timings (audit-log looks); tests that exercise late audit entries set them. */
  bot?: Pick<BotOptions, 'auditLogDelayMs' | 'auditLogRecheckMs'>;
}

/**
 * Builds and starts the whole product in one process: database, sessions, API + SPA, the Discord
 * simulator when in demo mode, and the bot and periodic jobs. Listening happens first so a random
 * port (tests) is known before the OAuth callback URL is built.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const preliminary = loadConfig(env);
  const server = http.createServer();
  // Until the app is built, a placeholder answers: the bound port never leaves a client hanging.
  let phase = 'opening the database';
  const starting = startingResponder(() => phase);
  server.on('request', starting);
  const port = options.port ?? preliminary.port;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host ?? preliminary.host, () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  const config = loadConfig({
    ...env,
    PORT: String(actualPort),
    PUBLIC_URL: env.PUBLIC_URL ?? (port === 0 ? `http://127.0.0.1:${actualPort}` : undefined),
  });
  const logger = options.logger ?? createLogger(config.logLevel, undefined, { format: config.logFormat });
  const clock = options.clock ?? systemClock;
  const startedAt = clock.now();
  const jobs = new JobMonitor(() => clock.now());

  let database: Database_ | undefined;
  let sessions: SessionSetup;
  let events: LiveEventBus;
  try {
    phase = 'checking the database (PRAGMA quick_check)';
    database = openDatabase(config.databasePath);
    phase = 'setting up sessions';
    sessions = await createSessionSetup(config, database.sqlite, {
      redisPrefix: options.redisPrefix,
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
    database?.close();
    throw err;
  }

  let simulator: DiscordSimulator | undefined;
  const preRoutes = [];
  // Production never mounts the simulator nor seeds demo data (loadConfig refuses production without
  // real Discord credentials; this is the second lock).
  if (config.discord.simulatorPath && !config.production) {
    // Loaded on demand from src/demo: production code paths never import the simulator.
    const { startDemoSimulator } = await import('./demo/simulator.ts');
    const demo = startDemoSimulator(config, server, logger);
    if (demo) {
      simulator = demo.simulator;
      preRoutes.push(demo.route);
    }
  }

  const discord = new DiscordApi({ baseUrl: config.discord.baseUrl, botToken: config.discord.botToken });
  const ctx: AppContext = {
    config,
    db: database.db,
    sqlite: database.sqlite,
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
    sqlite: database.sqlite,
    now: () => clock.now(),
    startedAt,
    pingRedis: sessions.pingRedis,
    botOff: !config.botEnabled
      ? 'BOT_ENABLED=false'
      : options.background === false
        ? 'background jobs not started'
        : undefined,
    botClient: () => started.background?.bot?.client ?? null,
    jobs,
    reconcile: { job: JOB.reconcile, maxAgeMs: 3 * RECONCILE_EVERY_MS },
  });
  const { app } = createApp(ctx, {
    sessionMiddleware: sessions.middleware,
    preRoutes,
    webDist: options.webDist,
    ...(options.ssrDist === undefined ? {} : { ssrDist: options.ssrDist }),
    readiness,
  });
  server.off('request', starting);
  server.on('request', app);

  if (config.demoSeed && simulator && !config.production) {
    const { seedDemo } = await import('./demo/seed.ts');
    await seedDemo(ctx, simulator);
  }

  const background =
    options.background === false
      ? { stop: () => Promise.resolve(), reconcileIdle: () => Promise.resolve() }
      : await startBackground(ctx, { jobs, bot: options.bot });
  started.background = background;

  let closed = false;
  return {
    url: config.publicUrl,
    config,
    ctx,
    http: server,
    database,
    sessions,
    simulator,
    background,
    jobs,
    async close() {
      if (closed) return;
      closed = true;
      await background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await simulator?.close();
      await events.close();
      await sessions.close();
      database.close();
    },
  };
}

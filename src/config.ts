import { hkdfSync } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { DEFAULT_JOIN_PACE } from './shared/join-constants.ts';

// Configuration is read once, at start-up, and validated here. Demo mode is "no DISCORD_CLIENT_ID"
// outside production: the process then mounts the built-in Discord simulator and points every Discord
// URL at it. Production never runs as a demo: it refuses to start until the real settings are there.

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

/** What production cannot run without; each one missing or empty is named in the start-up error. */
export const PRODUCTION_REQUIRED = [
  'SESSION_SECRET',
  'PUBLIC_URL',
  'DISCORD_CLIENT_ID',
  'DISCORD_CLIENT_SECRET',
  'DISCORD_BOT_TOKEN',
  'TOKEN_ENCRYPTION_KEY',
] as const;

/** A sanity bound on SHARD_COUNT (Discord's largest bots run a few thousand shards). */
export const MAX_SHARDS = 16_384;

export type Role = 'all' | 'web' | 'bot';

/** The gateway shards this process runs: Discord's recommendation ('auto'), or fixed ids of a fixed count. */
export type ShardPlan = 'auto' | { ids: number[]; count: number };

/**
 * ROLE, SHARD_COUNT and SHARD_IDS, checked together (decision 028, "Roles and sharding"). Returns the
 * problems by variable; an empty list means the combination is valid.
 *
 * - ROLE=all (default): everything in one process, as always. SHARD_COUNT may fix the shard count
 *   (otherwise Discord's recommendation, 'auto'); SHARD_IDS may not pick a subset, since no other
 *   process would run the rest.
 * - ROLE=web and ROLE=bot run beside other processes: they need a database several processes share
 *   (DATABASE_URL, PostgreSQL; the SQLite file belongs to one process) and Redis (sessions, rate
 *   limits, live events and cache invalidation cross processes through it). In demo mode the
 *   built-in simulator lives inside one process, so they need DISCORD_BASE_URL pointing at a shared one.
 * - ROLE=web runs no gateway: SHARD_* are refused there. ROLE=bot runs SHARD_IDS of SHARD_COUNT, or
 *   all of SHARD_COUNT without SHARD_IDS, or Discord's recommendation in one process without either.
 */
export function checkRoleSettings(
  env: Pick<
    Env,
    'ROLE' | 'SHARD_COUNT' | 'SHARD_IDS' | 'REDIS_URL' | 'DISCORD_BASE_URL' | 'DISCORD_CLIENT_ID'
  > & {
    NODE_ENV?: string;
  },
  databaseUrl: string | undefined,
): { issues: { key: string; message: string }[]; shards: ShardPlan } {
  const issues: { key: string; message: string }[] = [];
  const refuse = (key: string, message: string) => issues.push({ key, message });
  const role = env.ROLE;
  if (role !== 'all') {
    if (!databaseUrl)
      refuse(
        'ROLE',
        `ROLE=${role} runs beside other processes and needs PostgreSQL (DATABASE_URL): the SQLite file belongs to one process, so on SQLite run ROLE=all (the default)`,
      );
    if (!env.REDIS_URL)
      refuse(
        'REDIS_URL',
        `is required with ROLE=${role}: sessions, rate limits, live events and cache invalidation are shared through Redis`,
      );
    if (!env.DISCORD_CLIENT_ID && env.NODE_ENV !== 'production' && !env.DISCORD_BASE_URL)
      refuse(
        'DISCORD_BASE_URL',
        `is required with ROLE=${role} in demo mode: the built-in Discord simulator lives inside one process, so point every process at a shared one`,
      );
  }
  let ids: number[] | undefined;
  if (env.SHARD_IDS !== undefined) {
    const parts = env.SHARD_IDS.split(',').map((p) => p.trim());
    if (parts.some((p) => !/^\d{1,5}$/.test(p))) {
      refuse('SHARD_IDS', 'must be shard ids separated by commas, e.g. 0,1');
    } else {
      ids = parts.map(Number);
      if (new Set(ids).size !== ids.length) refuse('SHARD_IDS', 'names a shard twice');
      if (env.SHARD_COUNT === undefined)
        refuse('SHARD_COUNT', 'is required with SHARD_IDS (the total number of shards)');
      else if (ids.some((id) => id >= env.SHARD_COUNT!))
        refuse(
          'SHARD_IDS',
          `ids must be below SHARD_COUNT (${env.SHARD_COUNT}): shards are numbered 0 to ${env.SHARD_COUNT - 1}`,
        );
    }
  }
  if (role === 'web' && (env.SHARD_IDS !== undefined || env.SHARD_COUNT !== undefined))
    refuse('ROLE', 'ROLE=web runs no gateway: SHARD_COUNT and SHARD_IDS belong to ROLE=bot');
  if (role === 'all' && ids !== undefined && env.SHARD_COUNT !== undefined && ids.length !== env.SHARD_COUNT)
    refuse(
      'SHARD_IDS',
      'ROLE=all runs every shard in one process; running some shards here and others elsewhere is ROLE=bot',
    );
  const shards: ShardPlan =
    env.SHARD_COUNT === undefined
      ? 'auto'
      : { ids: ids ?? Array.from({ length: env.SHARD_COUNT }, (_, i) => i), count: env.SHARD_COUNT };
  return { issues, shards };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset/"false"/"0" trusts no proxy (X-Forwarded-* ignored); a number trusts that many
 * hops; otherwise a comma-separated list of proxy addresses, CIDR ranges or express's names
 * (loopback, linklocal, uniquelocal). "true" (trust anything) is refused: it lets any client forge
 * its address.
 */
export function parseTrustProxy(
  value: string | undefined,
): { ok: true; value: false | number | string[] } | { ok: false; message: string } {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return { ok: true, value: false };
  if (/^\d{1,2}$/.test(text)) return { ok: true, value: Number(text) };
  if (text === 'true')
    return {
      ok: false,
      message: 'must be a hop count or the proxy addresses; "true" would trust forged X-Forwarded-For',
    };
  const parts = text.split(',').map((p) => p.trim());
  for (const part of parts) {
    const [address = '', bits, extra] = part.split('/');
    const ok =
      extra === undefined &&
      (PROXY_NAMES.has(part) ||
        (isIP(address) !== 0 &&
          (bits === undefined ||
            (/^\d{1,3}$/.test(bits) && Number(bits) <= (isIP(address) === 4 ? 32 : 128)))));
    if (!ok)
      return {
        ok: false,
        message: `"${part}" is not a hop count, an IP address, a CIDR range or loopback/linklocal/uniquelocal`,
      };
  }
  return { ok: true, value: parts };
}

/**
 * DATABASE_URL: unset → SQLite at DATABASE_PATH; postgres://user[:password]@host[:port]/database (or
 * postgresql://) → PostgreSQL. Anything else is refused rather than guessed at.
 */
export function parseDatabaseUrl(
  value: string | undefined,
): { ok: true; value: string | undefined } | { ok: false; message: string } {
  const text = value?.trim() ?? '';
  if (text === '') return { ok: true, value: undefined };
  const refuse = (why: string) => ({
    ok: false as const,
    message: `${why}: expected postgres://user[:password]@host[:port]/database (leave DATABASE_URL unset to use SQLite at DATABASE_PATH)`,
  });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('is not a URL');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return refuse(`"${url.protocol.replace(/:$/, '')}" is not a PostgreSQL URL`);
  if (!url.hostname) return refuse('names no host');
  if (url.pathname.replace(/^\//, '') === '') return refuse('names no database');
  return { ok: true, value: text };
}

/**
 * The page cache's default budget, MB of gzip-compressed pages (~21 kB a page in the soak day): held outside
 * the heap, it counts in RSS in full once filled; the least recently used pages, mostly ones whose data has
 * changed since, go first (decision 049, session 17: 24 → 12 MB, renders per page served about the same).
 */
export const PAGE_CACHE_DEFAULT_MB = 12;
/**
 * The render worker thread's default nice value: 0, the loop's. At 10 the loop wins a contended core, but on a
 * busy machine renders starve past RENDER_WAIT_MS and members get the static shell (a clean-clone CI run
 * failed an SSR test on it): opt in with RENDER_WORKER_NICE (decision 049, session 17).
 */
export const RENDER_WORKER_DEFAULT_NICE = 0;

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: optionalString,
    TRUST_PROXY: optionalString,
    PUBLIC_URL: optionalString.pipe(z.url().optional()),
    DATABASE_PATH: z.string().default('data/coinsync.db'),
    /** postgres://… selects PostgreSQL (decision 028); unset keeps SQLite at DATABASE_PATH. */
    DATABASE_URL: optionalString,
    SESSION_SECRET: optionalString,
    /** 32 bytes, base64 or hex: encrypts members' Discord OAuth tokens at rest (AES-256-GCM). */
    TOKEN_ENCRYPTION_KEY: optionalString,
    /** Discord accounts younger than this earn nothing from joins (0 turns the rule off). */
    MIN_DISCORD_ACCOUNT_AGE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /** Same-address rule (decision 022): how long a sign-in address counts, in days (0 turns the rule off; default 7, demo mode 0). */
    SAME_ADDRESS_WINDOW_DAYS: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(90).optional(),
    ),
    /** Paid joins a campaign may get from members who share an address with its owner. */
    SAME_ADDRESS_MAX_PAID_JOINS: z.coerce.number().int().min(0).max(1000).default(3),
    /** Join pace per member (decision 038): website joins and /farm joins per rolling hour and day; 0 = no limit. */
    JOIN_PACE_PER_HOUR: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_JOIN_PACE.perHour),
    JOIN_PACE_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_JOIN_PACE.perDay),
    REDIS_URL: optionalString.pipe(z.url().optional()),
    REDIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1500),
    /** Start of every key this deployment writes in Redis: two deployments sharing one Redis need two. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - only, at most 64')
      .default('coinsync:'),
    DISCORD_CLIENT_ID: optionalString,
    DISCORD_CLIENT_SECRET: optionalString,
    DISCORD_BOT_TOKEN: optionalString,
    DISCORD_BASE_URL: optionalString.pipe(z.url().optional()),
    DISCORD_CDN_URL: z.url().default('https://cdn.discordapp.com'),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: optionalString.pipe(z.url().optional()),
    /** http(s) only (never javascript: or data:); https only in production (superRefine below). */
    SUPPORT_URL: z
      .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
      .default('https://discord.gg/coinsync-support'),
    DEMO_SEED: z.enum(['true', 'false']).default('true'),
    BOT_ENABLED: z.enum(['true', 'false']).default('true'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    WRITE_LIMITS: z.enum(['on', 'off']).default('on'),
    FAST_PATH: z.enum(['on', 'off']).default('on'),
    LOG_FORMAT: z.enum(['json', 'text']).optional(),
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    /** Reconciliation safety valve: share of a guild's in-stay members / count that may be charged in one run. */
    RECONCILE_MAX_CHARGE_SHARE: z.coerce.number().min(0).max(1).default(0.2),
    RECONCILE_MAX_CHARGES: z.coerce.number().int().min(0).default(50),
    /** Server Members intent (issue 26): on = used when Discord allows it (4014 → without it); off = never asked for. */
    DISCORD_MEMBERS_INTENT: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    /** Without the intent: seconds between member sweeps (joins verified, leaves found); default 300, demo mode 30. */
    MEMBER_SWEEP_SECONDS: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(5).max(3600).optional(),
    ),
    /** Seconds between Stripe reconciliation runs (issue 29); default 600. Shorter only for drills and tests. */
    STRIPE_RECONCILE_SECONDS: z.coerce.number().int().min(5).max(3600).default(600),
    /** Process roles and gateway shards (decision 028): see parseRoleSettings. */
    ROLE: z.enum(['all', 'web', 'bot'], { error: 'must be all, web or bot' }).default('all'),
    SHARD_COUNT: optionalString.pipe(
      z.coerce.number<string | undefined>().int().min(1).max(MAX_SHARDS).optional(),
    ),
    SHARD_IDS: optionalString,
    BOT_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(5001),
    /** Flood limits (decision 040): open connections, request bodies being read, live-event streams. */
    MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(4000),
    MAX_BODIES_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(256),
    LIVE_STREAMS_MAX: z.coerce.number().int().min(1).max(1_000_000).default(2000),
    LIVE_STREAMS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(32),
    /** Server-rendered pages (decisions 047, 049): the page cache's budget and the render worker's nice value. */
    PAGE_CACHE_MB: z.coerce.number().int().min(0).max(1024).default(PAGE_CACHE_DEFAULT_MB),
    RENDER_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(RENDER_WORKER_DEFAULT_NICE),
    /** Owner notifications (decision 052): `on` lets endpoints on loopback/private addresses through (tests, demo); refused in production. */
    NOTIFY_ALLOW_PRIVATE_TARGETS: z.enum(['on', 'off']).default('off'),
  })
  .superRefine((env, ctx) => {
    const refuse = (key: keyof typeof env, message: string) =>
      ctx.addIssue({ code: 'custom', path: [key], message });
    const demo = !env.DISCORD_CLIENT_ID;
    if (env.NODE_ENV === 'production') {
      for (const key of PRODUCTION_REQUIRED)
        if (!env[key]) refuse(key, 'is required in production (production never runs the demo)');
      if (!env.SUPPORT_URL.startsWith('https://'))
        refuse('SUPPORT_URL', 'must be an https URL in production');
      if (env.NOTIFY_ALLOW_PRIVATE_TARGETS === 'on')
        refuse(
          'NOTIFY_ALLOW_PRIVATE_TARGETS',
          'must be off in production (notification endpoints reach public addresses only)',
        );
    }
    if (env.TOKEN_ENCRYPTION_KEY && !parseKey(env.TOKEN_ENCRYPTION_KEY))
      refuse('TOKEN_ENCRYPTION_KEY', 'must be 32 bytes, base64 or hex');
    if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32)
      refuse('SESSION_SECRET', 'must be at least 32 characters');
    if (!demo && env.NODE_ENV !== 'production') {
      // Real Discord credentials are a real deployment whatever NODE_ENV says: never on the public
      // development secrets (sessions signed, tokens encrypted with a key anyone can read here).
      for (const key of [
        'DISCORD_CLIENT_SECRET',
        'DISCORD_BOT_TOKEN',
        'SESSION_SECRET',
        'TOKEN_ENCRYPTION_KEY',
      ] as const) {
        if (!env[key]) refuse(key, 'is required when DISCORD_CLIENT_ID is set');
      }
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET)
      refuse('STRIPE_WEBHOOK_SECRET', 'is required when STRIPE_SECRET_KEY is set');
    const trust = parseTrustProxy(env.TRUST_PROXY);
    if (!trust.ok) refuse('TRUST_PROXY', trust.message);
    const database = parseDatabaseUrl(env.DATABASE_URL);
    if (!database.ok) refuse('DATABASE_URL', database.message);
  });

/**
 * In production a variable that is present but empty ("DISCORD_CLIENT_ID=") is a mistake, not
 * "unset": it is how a half-filled .env or a missing secret in a deploy template looks.
 */
function emptyVariables(source: NodeJS.ProcessEnv): string[] {
  if (source.NODE_ENV?.trim() !== 'production') return [];
  const keys = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];
  return keys.filter((key) => typeof source[key] === 'string' && source[key].trim() === '');
}

export type Env = z.infer<typeof envSchema>;

/** A 32-byte key written as 64 hex digits or base64; null when it is neither. */
function parseKey(value: string): Buffer | null {
  const bytes = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.length === 32 ? bytes : null;
}

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  port: number;
  /** Interface to listen on: loopback unless HOST says otherwise (e.g. 0.0.0.0 in a container). */
  host: string;
  /** express "trust proxy": false (X-Forwarded-* ignored), a hop count, or the proxies' addresses. */
  trustProxy: false | number | string[];
  /** Origin the browser uses, e.g. http://localhost:5000 (no trailing slash). */
  publicUrl: string;
  /** SQLite file path (used when `database.kind` is sqlite). */
  databasePath: string;
  /** Which engine (decision 028): SQLite at DATABASE_PATH, or PostgreSQL at DATABASE_URL. */
  database: { kind: 'sqlite'; path: string } | { kind: 'pg'; url: string };
  sessionSecret: string;
  /** AES-256 key for OAuth tokens at rest: TOKEN_ENCRYPTION_KEY, or derived from the session secret outside production. */
  tokenEncryptionKey: Buffer;
  /** Minimum Discord account age (from the snowflake) to earn from joins; 0 = off. */
  minAccountAgeMs: number;
  /** Same-address rule (src/joins/same-address.ts): window (0 = off) and paid joins per campaign. */
  sameAddress: { windowMs: number; maxPaidJoins: number; hashKey: Buffer };
  /** Key of the HMAC that welcome_grants holds instead of raw Discord ids (from SESSION_SECRET). */
  discordIdHashKey: Buffer;
  /** Joins per member per rolling hour and day (0 = no limit), website and /farm alike (decision 038). */
  joinPace: { perHour: number; perDay: number };
  redisUrl: string | undefined;
  /** Connect timeout, and time limit of each session operation on Redis before answering 503. */
  redisTimeoutMs: number;
  /** REDIS_PREFIX: sessions live under `<prefix>sess:`, with the write limits and live events below them. */
  redisPrefix: string;
  demoMode: boolean;
  demoSeed: boolean;
  botEnabled: boolean;
  /** ROLE: all (one process, the default), web (HTTP only) or bot (gateway shards and periodic jobs). */
  role: Role;
  /** SHARD_COUNT / SHARD_IDS: the gateway shards this process runs ('auto' = Discord's recommendation). */
  shards: ShardPlan;
  /** ROLE=bot: the port of its /api/health and /api/ready (BOT_HEALTH_PORT, default 5001). */
  botHealthPort: number;
  logLevel: Env['LOG_LEVEL'];
  /** Per-user write limits (src/http/write-limits.ts); WRITE_LIMITS=off is for load tests only. */
  writeLimits: boolean;
  /**
   * The signed-in fast path for the hottest API routes (src/http/fast-path.ts, decisions 033, 046);
   * FAST_PATH=off serves every request through the full Express stack (A/B runs, or a fallback).
   */
  fastPath: boolean;
  /** JSON lines in production unless LOG_FORMAT says otherwise; readable text elsewhere. */
  logFormat: 'json' | 'text';
  /** Flood limits (decision 040): see src/http/server-limits.ts and src/events/routes.ts. */
  limits: {
    maxConnections: number;
    maxBodiesInFlight: number;
    liveStreams: number;
    liveStreamsPerAddress: number;
  };
  /** Bearer token for GET /metrics; unset → served to direct loopback connections only. */
  metricsToken: string | undefined;
  /**
   * PAGE_CACHE_MB: bytes of gzip-compressed rendered pages kept (src/auth/page-cache.ts); RENDER_WORKER_NICE:
   * the render worker thread's nice value on Linux (0 = the loop's), so the loop wins a core from a render.
   */
  pages: { cacheBytes: number; rendererNice: number };
  supportUrl: string;
  /** See src/bot/reconcile.ts: a run that would charge more than this in one guild charges nothing and alerts. */
  reconcileSafetyValve: { maxShare: number; maxCount: number; minCountForShare: number };
  /**
   * DISCORD_MEMBERS_INTENT: 'on' identifies with the privileged Server Members intent and falls back
   * to running without it when Discord refuses (4014); 'off' never asks for it (src/bot/member-sweep.ts).
   */
  membersIntent: 'on' | 'off';
  /** MEMBER_SWEEP_SECONDS: without the intent, how often pending and in-stay joins are looked up. */
  memberSweepMs: number;
  /**
   * Owner notifications (decision 052). allowPrivateTargets: endpoints may resolve to loopback or private
   * addresses (NOTIFY_ALLOW_PRIVATE_TARGETS=on; tests and the demo's local receiver, never production).
   */
  notifications: { allowPrivateTargets: boolean };
  /** STRIPE_RECONCILE_SECONDS: how often the Stripe reconciliation job runs (first run after a minute, or one period if shorter). */
  stripeReconcileMs: number;
  discord: {
    clientId: string;
    clientSecret: string;
    botToken: string;
    /** https://discord.com in production; the simulator's URL in demo mode and tests. */
    baseUrl: string;
    cdnUrl: string;
    /** Where the built-in simulator is mounted (demo mode only). */
    simulatorPath: string | undefined;
  };
  session: {
    /** __Host-coinsync.sid in production (Secure, Path=/, no Domain), coinsync.sid otherwise. */
    cookieName: string;
  };
  stripe: {
    secretKey: string | undefined;
    publishableKey: string | undefined;
    webhookSecret: string | undefined;
    /** Base URL of Stripe's API; a local fake in demo mode and tests. */
    apiUrl: string | undefined;
    /** Demo mode only: the local stand-in for Stripe.js (src/demo/stripe.ts); unset, js.stripe.com. */
    jsUrl?: string;
  };
}

export const DEMO_DISCORD = {
  clientId: '900000000000000001',
  clientSecret: 'demo-client-secret',
  botToken: 'demo-bot-token',
  simulatorPath: '/discord-sim',
} as const;

// Only used when no SESSION_SECRET is set outside production (demo, tests): stable so demo sessions survive restarts.
const DEV_SESSION_SECRET = 'coinsync-development-session-secret-not-for-production';

export class ConfigError extends Error {}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const { env, shards } = validEnv(source);
  const production = env.NODE_ENV === 'production';
  // Belt and braces: the schema already refuses production without DISCORD_CLIENT_ID.
  const demoMode = !production && !env.DISCORD_CLIENT_ID;
  const trustProxy = parseTrustProxy(env.TRUST_PROXY);
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  return {
    env: env.NODE_ENV,
    production,
    port: env.PORT,
    host: env.HOST ?? '127.0.0.1',
    trustProxy: trustProxy.ok ? trustProxy.value : false,
    publicUrl,
    databasePath: env.DATABASE_PATH,
    database: env.DATABASE_URL
      ? { kind: 'pg', url: env.DATABASE_URL }
      : { kind: 'sqlite', path: env.DATABASE_PATH },
    sessionSecret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    tokenEncryptionKey:
      (env.TOKEN_ENCRYPTION_KEY && parseKey(env.TOKEN_ENCRYPTION_KEY)) ||
      derivedKey(env, 'oauth-token-encryption'),
    minAccountAgeMs: env.MIN_DISCORD_ACCOUNT_AGE_DAYS * 24 * 60 * 60 * 1000,
    sameAddress: {
      // Demo mode: every simulated user is the one person at the browser, on one address.
      windowMs: (env.SAME_ADDRESS_WINDOW_DAYS ?? (demoMode ? 0 : 7)) * 24 * 60 * 60 * 1000,
      maxPaidJoins: env.SAME_ADDRESS_MAX_PAID_JOINS,
      // Addresses are stored only as HMACs under a key the database does not hold.
      hashKey: derivedKey(env, 'address-hash'),
    },
    // welcome_grants holds Discord ids only as HMACs under this key (issue 27 item 4).
    discordIdHashKey: derivedKey(env, 'discord-id-hash'),
    joinPace: { perHour: env.JOIN_PACE_PER_HOUR, perDay: env.JOIN_PACE_PER_DAY },
    redisUrl: env.REDIS_URL,
    redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    redisPrefix: env.REDIS_PREFIX,
    demoMode,
    demoSeed: demoMode && env.DEMO_SEED === 'true',
    botEnabled: env.BOT_ENABLED === 'true',
    role: env.ROLE,
    shards,
    botHealthPort: env.BOT_HEALTH_PORT,
    logLevel: env.LOG_LEVEL,
    writeLimits: env.WRITE_LIMITS === 'on',
    fastPath: env.FAST_PATH !== 'off',
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'text'),
    metricsToken: env.METRICS_TOKEN,
    limits: {
      maxConnections: env.MAX_CONNECTIONS,
      maxBodiesInFlight: env.MAX_BODIES_IN_FLIGHT,
      liveStreams: env.LIVE_STREAMS_MAX,
      liveStreamsPerAddress: env.LIVE_STREAMS_PER_ADDRESS,
    },
    pages: { cacheBytes: env.PAGE_CACHE_MB * 1024 * 1024, rendererNice: env.RENDER_WORKER_NICE },
    supportUrl: env.SUPPORT_URL,
    notifications: { allowPrivateTargets: !production && env.NOTIFY_ALLOW_PRIVATE_TARGETS === 'on' },
    reconcileSafetyValve: {
      maxShare: env.RECONCILE_MAX_CHARGE_SHARE,
      maxCount: env.RECONCILE_MAX_CHARGES,
      minCountForShare: 5,
    },
    membersIntent: env.DISCORD_MEMBERS_INTENT,
    memberSweepMs: (env.MEMBER_SWEEP_SECONDS ?? (demoMode ? 30 : 300)) * 1000,
    stripeReconcileMs: env.STRIPE_RECONCILE_SECONDS * 1000,
    discord: discordSettings(env, demoMode, publicUrl),
    session: { cookieName: production ? '__Host-coinsync.sid' : 'coinsync.sid' },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
    },
  };
}

/** The environment checked by the schema and the role rules; every problem at once in one ConfigError. */
function validEnv(source: NodeJS.ProcessEnv): { env: Env; shards: ShardPlan } {
  const parsed = envSchema.safeParse(source);
  const empty = emptyVariables(source);
  const roles = parsed.success
    ? checkRoleSettings(parsed.data, source.DATABASE_URL?.trim() || undefined)
    : { issues: [], shards: 'auto' as const };
  if (parsed.success && empty.length === 0 && roles.issues.length === 0)
    return { env: parsed.data, shards: roles.shards };
  const lines = empty.map((key) => `  - ${key}: is set but empty (remove the line or give it a value)`);
  const issues = parsed.success ? [] : parsed.error.issues;
  for (const issue of issues) {
    const key = issue.path.join('.') || 'env';
    if (!empty.includes(key)) lines.push(`  - ${key}: ${issue.message}`);
  }
  for (const issue of roles.issues) lines.push(`  - ${issue.key}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** A 32-byte key for one purpose, derived from the session secret (HKDF). */
function derivedKey(env: Env, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', env.SESSION_SECRET ?? DEV_SESSION_SECRET, 'coinsync', purpose, 32));
}

function discordSettings(env: Env, demoMode: boolean, publicUrl: string): Config['discord'] {
  return {
    clientId: env.DISCORD_CLIENT_ID ?? DEMO_DISCORD.clientId,
    clientSecret: env.DISCORD_CLIENT_SECRET ?? DEMO_DISCORD.clientSecret,
    botToken: env.DISCORD_BOT_TOKEN ?? DEMO_DISCORD.botToken,
    baseUrl: (
      env.DISCORD_BASE_URL ?? (demoMode ? `${publicUrl}${DEMO_DISCORD.simulatorPath}` : 'https://discord.com')
    ).replace(/\/+$/, ''),
    cdnUrl: env.DISCORD_CDN_URL.replace(/\/+$/, ''),
    simulatorPath: demoMode && !env.DISCORD_BASE_URL ? DEMO_DISCORD.simulatorPath : undefined,
  };
}

import { z } from 'zod';

// Configuration is read once, at start-up, and validated here. Demo mode is "no DISCORD_CLIENT_ID":
// the process then mounts the built-in Discord simulator and points every Discord URL at it.

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(5000),
    HOST: optionalString,
    PUBLIC_URL: optionalString.pipe(z.url().optional()),
    DATABASE_PATH: z.string().default('data/coinsync.db'),
    SESSION_SECRET: optionalString,
    REDIS_URL: optionalString.pipe(z.url().optional()),
    REDIS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1500),
    DISCORD_CLIENT_ID: optionalString,
    DISCORD_CLIENT_SECRET: optionalString,
    DISCORD_BOT_TOKEN: optionalString,
    DISCORD_BASE_URL: optionalString.pipe(z.url().optional()),
    DISCORD_CDN_URL: z.url().default('https://cdn.discordapp.com'),
    STRIPE_SECRET_KEY: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_API_URL: optionalString.pipe(z.url().optional()),
    SUPPORT_URL: z.url().default('https://discord.gg/coinsync-support'),
    DEMO_SEED: z.enum(['true', 'false']).default('true'),
    BOT_ENABLED: z.enum(['true', 'false']).default('true'),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    LOG_FORMAT: z.enum(['json', 'text']).optional(),
    METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  })
  .superRefine((env, ctx) => {
    const demo = !env.DISCORD_CLIENT_ID;
    if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required in production' });
    }
    if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32) {
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'must be at least 32 characters' });
    }
    if (!demo) {
      for (const key of ['DISCORD_CLIENT_SECRET', 'DISCORD_BOT_TOKEN'] as const) {
        if (!env[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required when DISCORD_CLIENT_ID is set' });
      }
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required when STRIPE_SECRET_KEY is set' });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  production: boolean;
  port: number;
  /** Interface to listen on: all interfaces in production, loopback otherwise, unless HOST says. */
  host: string;
  /** Origin the browser uses, e.g. http://localhost:5000 (no trailing slash). */
  publicUrl: string;
  databasePath: string;
  sessionSecret: string;
  redisUrl: string | undefined;
  /** Connect timeout, and time limit of each session operation on Redis before answering 503. */
  redisTimeoutMs: number;
  demoMode: boolean;
  demoSeed: boolean;
  botEnabled: boolean;
  logLevel: Env['LOG_LEVEL'];
  /** JSON lines in production unless LOG_FORMAT says otherwise; readable text elsewhere. */
  logFormat: 'json' | 'text';
  /** Bearer token for GET /metrics; unset → served to direct loopback connections only. */
  metricsToken: string | undefined;
  supportUrl: string;
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
  stripe: {
    secretKey: string | undefined;
    publishableKey: string | undefined;
    webhookSecret: string | undefined;
    /** Base URL of Stripe's API; a local fake in demo mode and tests. */
    apiUrl: string | undefined;
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
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || 'env'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const demoMode = !env.DISCORD_CLIENT_ID;
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const simulatorPath = demoMode && !env.DISCORD_BASE_URL ? DEMO_DISCORD.simulatorPath : undefined;
  return {
    env: env.NODE_ENV,
    production: env.NODE_ENV === 'production',
    port: env.PORT,
    host: env.HOST ?? (env.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1'),
    publicUrl,
    databasePath: env.DATABASE_PATH,
    sessionSecret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    redisUrl: env.REDIS_URL,
    redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    demoMode,
    demoSeed: demoMode && env.DEMO_SEED === 'true',
    botEnabled: env.BOT_ENABLED === 'true',
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'text'),
    metricsToken: env.METRICS_TOKEN,
    supportUrl: env.SUPPORT_URL,
    discord: {
      clientId: env.DISCORD_CLIENT_ID ?? DEMO_DISCORD.clientId,
      clientSecret: env.DISCORD_CLIENT_SECRET ?? DEMO_DISCORD.clientSecret,
      botToken: env.DISCORD_BOT_TOKEN ?? DEMO_DISCORD.botToken,
      baseUrl: (
        env.DISCORD_BASE_URL ?? (demoMode ? `${publicUrl}${DEMO_DISCORD.simulatorPath}` : 'https://discord.com')
      ).replace(/\/+$/, ''),
      cdnUrl: env.DISCORD_CDN_URL.replace(/\/+$/, ''),
      simulatorPath,
    },
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      publishableKey: env.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET,
      apiUrl: env.STRIPE_API_URL,
    },
  };
}

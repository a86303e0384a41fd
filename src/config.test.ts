import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'x'.repeat(32),
  PUBLIC_URL: 'https://coins.example.com',
  DISCORD_CLIENT_ID: '123456789012345678',
  DISCORD_CLIENT_SECRET: 'real-secret',
  DISCORD_BOT_TOKEN: 'real-token',
  TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
} as const;

describe('config', () => {
  it('DISCORD_MEMBERS_INTENT (on by default) and MEMBER_SWEEP_SECONDS (300, demo mode 30)', () => {
    expect(loadConfig({}).membersIntent).toBe('on');
    expect(loadConfig({ DISCORD_MEMBERS_INTENT: 'off' }).membersIntent).toBe('off');
    expect(loadConfig({ ...PRODUCTION, DISCORD_MEMBERS_INTENT: 'off' }).membersIntent).toBe('off');
    expect(() => loadConfig({ DISCORD_MEMBERS_INTENT: 'maybe' })).toThrow(
      /DISCORD_MEMBERS_INTENT: must be on or off/,
    );
    expect(loadConfig({}).memberSweepMs).toBe(30_000);
    expect(loadConfig(PRODUCTION).memberSweepMs).toBe(300_000);
    expect(loadConfig({ MEMBER_SWEEP_SECONDS: '60' }).memberSweepMs).toBe(60_000);
    expect(() => loadConfig({ MEMBER_SWEEP_SECONDS: '2' })).toThrow(/MEMBER_SWEEP_SECONDS/);
  });

  it('STRIPE_RECONCILE_SECONDS: 600 by default (production too), 5–3600', () => {
    expect(loadConfig({}).stripeReconcileMs).toBe(600_000);
    expect(loadConfig(PRODUCTION).stripeReconcileMs).toBe(600_000);
    expect(loadConfig({ STRIPE_RECONCILE_SECONDS: '10' }).stripeReconcileMs).toBe(10_000);
    expect(() => loadConfig({ STRIPE_RECONCILE_SECONDS: '1' })).toThrow(/STRIPE_RECONCILE_SECONDS/);
  });

  it('PAGE_CACHE_MB (12) and RENDER_WORKER_NICE (0): the page cache in bytes, a nice value 0–19 (decision 049, session 17)', () => {
    expect(loadConfig(PRODUCTION).pages).toEqual({ cacheBytes: 12 * 1024 * 1024, rendererNice: 0 });
    expect(loadConfig({ PAGE_CACHE_MB: '24', RENDER_WORKER_NICE: '10' }).pages).toEqual({
      cacheBytes: 24 * 1024 * 1024,
      rendererNice: 10,
    });
    expect(() => loadConfig({ PAGE_CACHE_MB: '-1' })).toThrow(/PAGE_CACHE_MB/);
    expect(() => loadConfig({ RENDER_WORKER_NICE: '20' })).toThrow(/RENDER_WORKER_NICE/);
    expect(() => loadConfig({ RENDER_WORKER_NICE: '-5' })).toThrow(/RENDER_WORKER_NICE/);
  });

  it('NOTIFY_ALLOW_PRIVATE_TARGETS: off by default; on only outside production (decision 052)', () => {
    expect(loadConfig({}).notifications.allowPrivateTargets).toBe(false);
    expect(loadConfig(PRODUCTION).notifications.allowPrivateTargets).toBe(false);
    expect(loadConfig({ NOTIFY_ALLOW_PRIVATE_TARGETS: 'on' }).notifications.allowPrivateTargets).toBe(true);
    expect(() => loadConfig({ ...PRODUCTION, NOTIFY_ALLOW_PRIVATE_TARGETS: 'on' })).toThrow(
      /NOTIFY_ALLOW_PRIVATE_TARGETS: must be off in production/,
    );
  });

  it('defaults to demo mode on port 5000 with the embedded simulator', () => {
    const config = loadConfig({});
    expect(config.port).toBe(5000);
    expect(config.demoMode).toBe(true);
    expect(config.discord.baseUrl).toBe('http://localhost:5000/discord-sim');
    expect(config.discord.simulatorPath).toBe('/discord-sim');
    expect(config.redisUrl).toBeUndefined();
    expect(config.host).toBe('127.0.0.1');
  });

  it('listens on loopback unless HOST says otherwise, in production too', () => {
    expect(loadConfig(PRODUCTION).host).toBe('127.0.0.1');
    expect(loadConfig({ ...PRODUCTION, HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
  });

  it('starts production only with real Discord credentials: never the simulator, the demo seed or demo secrets', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.demoMode).toBe(false);
    expect(config.demoSeed).toBe(false);
    expect(config.discord.simulatorPath).toBeUndefined();
    expect(config.discord.clientSecret).toBe('real-secret');
    expect(config.session.cookieName).toBe('__Host-coinsync.sid');
    expect(loadConfig({}).session.cookieName).toBe('coinsync.sid');
  });

  it('refuses production with a missing or empty variable, naming each one', () => {
    const { DISCORD_CLIENT_ID: _id, ...withoutId } = PRODUCTION;
    expect(() => loadConfig(withoutId)).toThrow(/DISCORD_CLIENT_ID: is required in production/);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /SESSION_SECRET[^\n]*\n.*PUBLIC_URL[^\n]*\n.*DISCORD_CLIENT_ID[^\n]*\n.*DISCORD_CLIENT_SECRET[^\n]*\n.*DISCORD_BOT_TOKEN/,
    );
    expect(() => loadConfig({ ...PRODUCTION, DISCORD_CLIENT_ID: '' })).toThrow(
      /DISCORD_CLIENT_ID: is set but empty/,
    );
    expect(() => loadConfig({ ...PRODUCTION, DISCORD_BOT_TOKEN: '  ' })).toThrow(
      /DISCORD_BOT_TOKEN: is set but empty/,
    );
    expect(() => loadConfig({ ...PRODUCTION, STRIPE_SECRET_KEY: '' })).toThrow(
      /STRIPE_SECRET_KEY: is set but empty/,
    );
    // Outside production an empty variable still means "unset" (tests switch Redis off that way).
    expect(loadConfig({ REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it('keys Redis under REDIS_PREFIX (coinsync: unless set) and refuses a prefix that is not a plain key', () => {
    expect(loadConfig({}).redisPrefix).toBe('coinsync:');
    expect(loadConfig({ REDIS_PREFIX: 'staging:coinsync:' }).redisPrefix).toBe('staging:coinsync:');
    expect(() => loadConfig({ REDIS_PREFIX: 'has space' })).toThrow(/REDIS_PREFIX/);
    expect(() => loadConfig({ REDIS_PREFIX: 'x'.repeat(65) })).toThrow(/REDIS_PREFIX/);
  });

  it('trusts no proxy unless TRUST_PROXY names one', () => {
    expect(loadConfig(PRODUCTION).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8 ,::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: .*forged/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.local' })).toThrow(/TRUST_PROXY: "proxy.local" is not/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
  });

  it('reads PORT and uses real Discord when credentials are configured', () => {
    const config = loadConfig({
      PORT: '8080',
      DISCORD_CLIENT_ID: '123',
      DISCORD_CLIENT_SECRET: 's',
      DISCORD_BOT_TOKEN: 't',
      SESSION_SECRET: 'x'.repeat(32),
      TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(config.port).toBe(8080);
    expect(config.demoMode).toBe(false);
    expect(config.discord.baseUrl).toBe('https://discord.com');
    expect(config.discord.simulatorPath).toBeUndefined();
  });

  it('refuses real Discord credentials without SESSION_SECRET and TOKEN_ENCRYPTION_KEY whatever NODE_ENV says', () => {
    const real = { DISCORD_CLIENT_ID: '123', DISCORD_CLIENT_SECRET: 's', DISCORD_BOT_TOKEN: 't' };
    for (const NODE_ENV of [undefined, 'development', 'test']) {
      const env = NODE_ENV ? { ...real, NODE_ENV } : real;
      expect(() => loadConfig(env)).toThrow(/SESSION_SECRET: is required when DISCORD_CLIENT_ID is set/);
      expect(() => loadConfig(env)).toThrow(
        /TOKEN_ENCRYPTION_KEY: is required when DISCORD_CLIENT_ID is set/,
      );
      expect(() => loadConfig({ ...env, SESSION_SECRET: 'x'.repeat(32) })).toThrow(/TOKEN_ENCRYPTION_KEY/);
      expect(
        loadConfig({ ...env, SESSION_SECRET: 'x'.repeat(32), TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32) })
          .demoMode,
      ).toBe(false);
    }
    // The demo (no Discord credentials) still starts on its development secrets.
    expect(loadConfig({}).demoMode).toBe(true);
  });

  it('takes URL settings as http(s) only, https only in production', () => {
    expect(() => loadConfig({ SUPPORT_URL: 'javascript:alert(1)' })).toThrow(
      /SUPPORT_URL: must be an http\(s\) URL/,
    );
    expect(() => loadConfig({ SUPPORT_URL: 'data:text/html,x' })).toThrow(/SUPPORT_URL/);
    expect(loadConfig({ SUPPORT_URL: 'http://localhost:9/help' }).supportUrl).toBe('http://localhost:9/help');
    expect(() => loadConfig({ ...PRODUCTION, SUPPORT_URL: 'http://help.example.com' })).toThrow(
      /SUPPORT_URL: must be an https URL in production/,
    );
  });

  it('refuses production without SESSION_SECRET, naming the variable', () => {
    const { SESSION_SECRET: _s, ...withoutSecret } = PRODUCTION;
    expect(() => loadConfig(withoutSecret)).toThrow(ConfigError);
    expect(() => loadConfig(withoutSecret)).toThrow(/SESSION_SECRET: is required in production/);
  });

  it('needs TOKEN_ENCRYPTION_KEY (32 bytes) in production with real Discord, and derives one otherwise', () => {
    const { TOKEN_ENCRYPTION_KEY: _key, ...real } = PRODUCTION;
    expect(() => loadConfig(real)).toThrow(/TOKEN_ENCRYPTION_KEY: is required in production/);
    expect(() => loadConfig({ ...real, TOKEN_ENCRYPTION_KEY: 'abcd' })).toThrow(
      /TOKEN_ENCRYPTION_KEY: must be 32 bytes/,
    );
    const key = 'ab'.repeat(32);
    expect(loadConfig({ ...real, TOKEN_ENCRYPTION_KEY: key }).tokenEncryptionKey.toString('hex')).toBe(key);
    expect(loadConfig({}).tokenEncryptionKey).toHaveLength(32);
    expect(loadConfig({ MIN_DISCORD_ACCOUNT_AGE_DAYS: '0' }).minAccountAgeMs).toBe(0);
    expect(loadConfig({}).minAccountAgeMs).toBe(7 * 24 * 3600 * 1000);
  });

  it('turns the same-address rule on with real Discord (7 days, 3 joins), off in demo mode unless set', () => {
    const { NODE_ENV: _env, ...real } = PRODUCTION;
    expect(loadConfig(real).sameAddress).toMatchObject({ windowMs: 7 * 24 * 3600 * 1000, maxPaidJoins: 3 });
    expect(loadConfig({}).sameAddress.windowMs).toBe(0);
    expect(
      loadConfig({ SAME_ADDRESS_WINDOW_DAYS: '2', SAME_ADDRESS_MAX_PAID_JOINS: '1' }).sameAddress,
    ).toMatchObject({
      windowMs: 2 * 24 * 3600 * 1000,
      maxPaidJoins: 1,
    });
    expect(() => loadConfig({ SAME_ADDRESS_WINDOW_DAYS: 'a week' })).toThrow(/SAME_ADDRESS_WINDOW_DAYS/);
  });

  it('refuses bad values with a clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DISCORD_CLIENT_ID: '1' })).toThrow(
      /DISCORD_CLIENT_SECRET.*\n.*DISCORD_BOT_TOKEN/,
    );
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });

  it('uses SQLite at DATABASE_PATH unless DATABASE_URL names a PostgreSQL database', () => {
    expect(loadConfig({}).database).toEqual({ kind: 'sqlite', path: 'data/coinsync.db' });
    expect(loadConfig({ DATABASE_PATH: '/var/lib/coinsync/db.sqlite', DATABASE_URL: '' }).database).toEqual({
      kind: 'sqlite',
      path: '/var/lib/coinsync/db.sqlite',
    });
    const url = 'postgres://coinsync:secret@db.internal:5432/coinsync';
    expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'pg', url });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/coinsync' }).database.kind).toBe('pg');
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL with a database, without echoing it', () => {
    const refused = (value: string) => {
      try {
        loadConfig({ DATABASE_URL: value });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error(`accepted ${value}`);
    };
    expect(refused('mysql://u:hunter2@db/coinsync')).toMatch(
      /DATABASE_URL: "mysql" is not a PostgreSQL URL: expected postgres:\/\/user\[:password\]@host/,
    );
    expect(refused('mysql://u:hunter2@db/coinsync')).not.toContain('hunter2');
    expect(refused('data/coinsync.db')).toMatch(/DATABASE_URL: is not a URL.*leave DATABASE_URL unset/);
    expect(refused('postgres://db.internal')).toMatch(/DATABASE_URL: names no database/);
    expect(refused('postgres:///coinsync')).toMatch(/DATABASE_URL: names no host/);
  });

  describe('ROLE, SHARD_COUNT and SHARD_IDS (decision 028)', () => {
    const SPLIT = {
      DATABASE_URL: 'postgres://coinsync@db.internal/coinsync',
      REDIS_URL: 'redis://127.0.0.1:6379',
      DISCORD_BASE_URL: 'http://127.0.0.1:5150',
    };

    it("defaults to ROLE=all with Discord's recommended shards, as always", () => {
      const config = loadConfig({});
      expect(config.role).toBe('all');
      expect(config.shards).toBe('auto');
      expect(config.botHealthPort).toBe(5001);
      // A fixed count in the one process: every shard of it.
      expect(loadConfig({ SHARD_COUNT: '3' }).shards).toEqual({ ids: [0, 1, 2], count: 3 });
    });

    it('refuses ROLE=web and ROLE=bot on SQLite: the file belongs to one process', () => {
      for (const role of ['web', 'bot']) {
        const { DATABASE_URL: _url, ...withoutPg } = SPLIT;
        expect(() => loadConfig({ ...withoutPg, ROLE: role })).toThrow(
          new RegExp(
            `ROLE: ROLE=${role} runs beside other processes and needs PostgreSQL \\(DATABASE_URL\\)`,
          ),
        );
        expect(() => loadConfig({ ...withoutPg, ROLE: role })).toThrow(/on SQLite run ROLE=all/);
        expect(loadConfig({ ...SPLIT, ROLE: role }).role).toBe(role);
      }
    });

    it('needs REDIS_URL for a split, and a shared simulator in demo mode', () => {
      expect(() => loadConfig({ ...SPLIT, ROLE: 'web', REDIS_URL: '' })).toThrow(
        /REDIS_URL: is required with ROLE=web: sessions, rate limits, live events/,
      );
      expect(() => loadConfig({ ...SPLIT, ROLE: 'bot', REDIS_URL: '' })).toThrow(
        /REDIS_URL: is required with ROLE=bot/,
      );
      expect(() => loadConfig({ ...SPLIT, ROLE: 'bot', DISCORD_BASE_URL: '' })).toThrow(
        /DISCORD_BASE_URL: is required with ROLE=bot in demo mode/,
      );
      // With real Discord there is no simulator to share.
      expect(
        loadConfig({
          ...SPLIT,
          DISCORD_BASE_URL: '',
          ROLE: 'bot',
          DISCORD_CLIENT_ID: '1',
          DISCORD_CLIENT_SECRET: 's',
          DISCORD_BOT_TOKEN: 't',
          SESSION_SECRET: 'x'.repeat(32),
          TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
        }).role,
      ).toBe('bot');
    });

    it('reads the shard group of a bot process, and refuses shard settings that cannot work', () => {
      expect(loadConfig({ ...SPLIT, ROLE: 'bot', SHARD_COUNT: '4', SHARD_IDS: '2, 3' }).shards).toEqual({
        ids: [2, 3],
        count: 4,
      });
      expect(loadConfig({ ...SPLIT, ROLE: 'bot', SHARD_COUNT: '2' }).shards).toEqual({
        ids: [0, 1],
        count: 2,
      });
      expect(loadConfig({ ...SPLIT, ROLE: 'bot' }).shards).toBe('auto');
      expect(loadConfig({ ...SPLIT, ROLE: 'bot', BOT_HEALTH_PORT: '5152' }).botHealthPort).toBe(5152);
      const bot = { ...SPLIT, ROLE: 'bot' };
      expect(() => loadConfig({ ...bot, SHARD_IDS: '0' })).toThrow(/SHARD_COUNT: is required with SHARD_IDS/);
      expect(() => loadConfig({ ...bot, SHARD_COUNT: '2', SHARD_IDS: '1,2' })).toThrow(
        /SHARD_IDS: ids must be below SHARD_COUNT \(2\): shards are numbered 0 to 1/,
      );
      expect(() => loadConfig({ ...bot, SHARD_COUNT: '2', SHARD_IDS: '1,1' })).toThrow(
        /SHARD_IDS: names a shard twice/,
      );
      expect(() => loadConfig({ ...bot, SHARD_COUNT: '2', SHARD_IDS: 'one' })).toThrow(
        /SHARD_IDS: must be shard ids separated by commas/,
      );
      expect(() => loadConfig({ ...bot, SHARD_COUNT: '0' })).toThrow(/SHARD_COUNT/);
      expect(() => loadConfig({ ...SPLIT, ROLE: 'web', SHARD_COUNT: '2' })).toThrow(
        /ROLE: ROLE=web runs no gateway: SHARD_COUNT and SHARD_IDS belong to ROLE=bot/,
      );
      expect(() => loadConfig({ SHARD_COUNT: '2', SHARD_IDS: '1' })).toThrow(
        /SHARD_IDS: ROLE=all runs every shard in one process/,
      );
      expect(() => loadConfig({ ROLE: 'worker' })).toThrow(/ROLE: must be all, web or bot/);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('config', () => {
  it('defaults to demo mode on port 5000 with the embedded simulator', () => {
    const config = loadConfig({});
    expect(config.port).toBe(5000);
    expect(config.demoMode).toBe(true);
    expect(config.discord.baseUrl).toBe('http://localhost:5000/discord-sim');
    expect(config.discord.simulatorPath).toBe('/discord-sim');
    expect(config.redisUrl).toBeUndefined();
    expect(config.host).toBe('127.0.0.1');
  });

  it('listens on all interfaces in production unless HOST says otherwise', () => {
    const secret = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) } as const;
    expect(loadConfig(secret).host).toBe('0.0.0.0');
    expect(loadConfig({ ...secret, HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '::' }).host).toBe('::');
  });

  it('reads PORT and uses real Discord when credentials are configured', () => {
    const config = loadConfig({
      PORT: '8080',
      DISCORD_CLIENT_ID: '123',
      DISCORD_CLIENT_SECRET: 's',
      DISCORD_BOT_TOKEN: 't',
    });
    expect(config.port).toBe(8080);
    expect(config.demoMode).toBe(false);
    expect(config.discord.baseUrl).toBe('https://discord.com');
    expect(config.discord.simulatorPath).toBeUndefined();
  });

  it('refuses production without SESSION_SECRET, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET: is required in production/);
  });

  it('needs TOKEN_ENCRYPTION_KEY (32 bytes) in production with real Discord, and derives one otherwise', () => {
    const real = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      DISCORD_CLIENT_ID: '1',
      DISCORD_CLIENT_SECRET: 's',
      DISCORD_BOT_TOKEN: 't',
    } as const;
    expect(() => loadConfig(real)).toThrow(/TOKEN_ENCRYPTION_KEY: is required in production/);
    expect(() => loadConfig({ ...real, TOKEN_ENCRYPTION_KEY: 'abcd' })).toThrow(/TOKEN_ENCRYPTION_KEY: must be 32 bytes/);
    const key = 'ab'.repeat(32);
    expect(loadConfig({ ...real, TOKEN_ENCRYPTION_KEY: key }).tokenEncryptionKey.toString('hex')).toBe(key);
    expect(loadConfig({}).tokenEncryptionKey).toHaveLength(32);
    expect(loadConfig({ MIN_DISCORD_ACCOUNT_AGE_DAYS: '0' }).minAccountAgeMs).toBe(0);
    expect(loadConfig({}).minAccountAgeMs).toBe(7 * 24 * 3600 * 1000);
  });

  it('refuses bad values with a clear message', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ DISCORD_CLIENT_ID: '1' })).toThrow(/DISCORD_CLIENT_SECRET.*\n.*DISCORD_BOT_TOKEN/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/at least 32/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});

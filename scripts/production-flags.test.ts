import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

// `npm start` and pm2's process file must run the compiled server with the same node flags (the V8
// heap limits the memory goal depends on, docs/performance.md), and the bench measures with them.

const root = path.resolve(import.meta.dirname, '..');

interface App {
  name: string;
  script: string;
  node_args: string;
  env?: Record<string, string>;
  instances: number;
  increment_var?: string;
  env_production: Record<string, string | number>;
}
const ecosystem = createRequire(import.meta.url)(path.join(root, 'ecosystem.config.cjs')) as {
  apps: App[];
  scaledApps(env: Record<string, string>): App[];
};

it('npm start and ecosystem.config.cjs run dist/server/main.js with the same node flags', () => {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const start = /node (.*)dist\/server\/main\.js/.exec(pkg.scripts.start ?? '');
  expect(start, 'npm start runs node … dist/server/main.js').not.toBeNull();
  const app = ecosystem.apps[0]!;
  expect(ecosystem.apps).toHaveLength(1);
  expect(app.script).toBe('dist/server/main.js');
  expect(start![1]!.trim().split(/\s+/)).toEqual(app.node_args.split(/\s+/));
  // The same environment too: glibc's malloc arenas (decision 027, session-13 revision) are set by the
  // variables `npm start` puts before node, which the process file sets for every app as `env`.
  const startEnv = /&& ((?:\w+=\S+ )*)node /.exec(pkg.scripts.start ?? '')![1]!.trim();
  expect(Object.fromEntries(startEnv.split(/\s+/).map((kv) => kv.split('=')))).toEqual(app.env);
  expect(app.env).toMatchObject({ MALLOC_ARENA_MAX: '2' });
  expect(app.node_args).toMatch(/--max-old-space-size=\d+/);
  expect(app.node_args).toMatch(/--max-semi-space-size=\d+/);
  // Without it V8 may tenure per-request allocation sites after start-up, and Discover's p99 doubles
  // with major GCs every ~1.5 s under load (decision 027, session-9 revision).
  expect(app.node_args.split(/\s+/)).toContain('--no-allocation-site-pretenuring');
  // Source maps of every loaded module held ~11 MB of the main heap for the life of the process; the logger
  // maps the compiled server's frames itself (decision 049, session 16).
  expect(app.node_args.split(/\s+/)).not.toContain('--enable-source-maps');
  expect(app.instances).toBe(1);
  expect(app.env_production.ROLE).toBeUndefined(); // ROLE=all

  // The scaled-out layout: the same flags everywhere, web × N, one bot per shard group covering every
  // shard once, each process on its own port, and environments that pass the role checks.
  const scaled = ecosystem.scaledApps({
    LAYOUT_WEB_INSTANCES: '3',
    LAYOUT_SHARD_COUNT: '4',
    LAYOUT_SHARD_GROUPS: '0,1:2,3',
  });
  for (const a of scaled) {
    expect(a.script, a.name).toBe('dist/server/main.js');
    expect(a.node_args, a.name).toBe(app.node_args);
    expect(a.env, a.name).toEqual(app.env);
  }
  const [web, ...bots] = scaled;
  expect(web).toMatchObject({ instances: 3, increment_var: 'PORT', env_production: { ROLE: 'web' } });
  expect(bots.map((b) => b.env_production.SHARD_IDS)).toEqual(['0,1', '2,3']);
  expect(new Set(bots.map((b) => b.env_production.BOT_HEALTH_PORT)).size).toBe(bots.length);
  const shared = {
    DATABASE_URL: 'postgres://coinsync@db/coinsync',
    REDIS_URL: 'redis://cache:6379',
    DISCORD_CLIENT_ID: '1',
    DISCORD_CLIENT_SECRET: 's',
    DISCORD_BOT_TOKEN: 't',
    SESSION_SECRET: 'a-session-secret-of-at-least-32-characters',
    TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
  };
  const shards = bots.flatMap((b) => {
    const config = loadConfig({ ...shared, ...stringify(b.env_production), NODE_ENV: 'test' });
    expect(config.role).toBe('bot');
    return config.shards === 'auto' ? [] : config.shards.ids;
  });
  expect(shards.sort()).toEqual([0, 1, 2, 3]);
  expect(loadConfig({ ...shared, ...stringify(web!.env_production), NODE_ENV: 'test' }).role).toBe('web');
  // Without LAYOUT_SHARD_GROUPS: one bot process per shard.
  expect(
    ecosystem
      .scaledApps({ LAYOUT_SHARD_COUNT: '2' })
      .slice(1)
      .map((b) => b.env_production.SHARD_IDS),
  ).toEqual(['0', '1']);
});

const stringify = (env: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));

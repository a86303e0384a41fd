// pm2 process file. Build first (`npm ci && npm run build`, then `npm prune --omit=dev` if you like).
// Runs the compiled server: no TypeScript loader.
//
// Default — one process runs the bot, the API and the dashboard (the supported layout today):
//   pm2 start ecosystem.config.cjs --env production
//
// Scaled out (decision 028; docs/deploy.md, "Scaled out") — web processes behind the proxy and one bot
// process per shard group, all on one PostgreSQL and one Redis:
//   COINSYNC_LAYOUT=scaled LAYOUT_WEB_INSTANCES=4 LAYOUT_SHARD_COUNT=4 LAYOUT_SHARD_GROUPS=0,1:2,3 pm2 start ecosystem.config.cjs --env production
// (LAYOUT_* names, not the apps' own SHARD_COUNT/PORT: pm2 passes its own environment on to every app.)
// ROLE=web/bot need DATABASE_URL (PostgreSQL) and REDIS_URL: start-up refuses a split on SQLite.

// V8 heap limits (docs/performance.md, memory; decision 027, revised in sessions 7 and 14): old space capped at
// 144 MB (the live heap after a full GC is ~80-95 MB with 1,000 campaigns and 1,300 guilds; V8 otherwise
// lets garbage pile up to ~250 MB before collecting it), young generation 8 MB per semi-space (session 7
// chose 16 when short-lived request garbage was promoted and major GCs ran under load; that was V8's
// allocation-site pretenuring, off since session 9, and 8 MB took 10-13 MB off the main heap in the soak day
// with fewer major GCs and no more scavenge time per request: session 14). Worst case ~144 + 3 x 8 + the
// render worker's ~40-45 (sized apart, src/auth/page-renderer.ts) + ~90-105 outside the heaps = ~300-320 MB.
// No allocation-site pretenuring (session 9): V8 otherwise sometimes starts allocating per-request objects
// straight in old space after start-up, and those dead objects keep every later request's young objects alive
// until the next full GC, which then runs every ~1.5 s under load (docs/performance.md, Discover).
// No --enable-source-maps (decision 049, session 16): it keeps every loaded module's source map in the heap,
// ~11 MB of live heap (most of it node_modules' maps); the logger maps our own frames when it writes an
// error (src/ops/source-stack.ts). Keep in step with `npm start` in package.json
// (scripts/production-flags.test.ts checks every app).
const NODE_ARGS = '--max-old-space-size=144 --max-semi-space-size=8 --no-allocation-site-pretenuring';

// glibc's malloc keeps up to 8 arenas per core, one per thread that allocates (the loop, the page-render
// worker, libuv's pool doing gzip, V8's helpers), and returns little of their free memory: 2 arenas held
// ~19 MB less RSS in the soak day (decision 027, session-13 revision). Keep in step with `npm start`.
const ENV = { MALLOC_ARENA_MAX: '2' };

const common = {
  script: 'dist/server/main.js',
  interpreter: 'node',
  node_args: NODE_ARGS,
  // pm2 sets `env` for every --env, under env_production's values.
  env: ENV,
  exec_mode: 'fork',
  autorestart: true,
  max_memory_restart: '512M',
  kill_timeout: 10000,
};

const single = {
  ...common,
  name: 'coinsync',
  instances: 1,
  // SQLite and the gateway connection belong to exactly one process.
  env_production: {
    NODE_ENV: 'production',
    PORT: 5000,
  },
};

/**
 * The scaled-out apps: `coinsync-web` × LAYOUT_WEB_INSTANCES (ROLE=web; instance i listens on
 * LAYOUT_WEB_PORT + i, the proxy balances over them on /api/ready), and `coinsync-bot-<n>` per shard
 * group of LAYOUT_SHARD_GROUPS (default: one per shard; ROLE=bot, SHARD_IDS of LAYOUT_SHARD_COUNT,
 * health checks on LAYOUT_BOT_HEALTH_PORT + n). DATABASE_URL,
 * REDIS_URL and the secrets come from the environment pm2 is started with.
 */
function scaledApps(env = process.env) {
  const webInstances = Number(env.LAYOUT_WEB_INSTANCES ?? 2);
  const shardCount = Number(env.LAYOUT_SHARD_COUNT ?? 1);
  const groups = (
    env.LAYOUT_SHARD_GROUPS ?? Array.from({ length: shardCount }, (_, i) => String(i)).join(':')
  )
    .split(':')
    .map((group) => group.split(',').map((id) => Number(id.trim())));
  const webPort = Number(env.LAYOUT_WEB_PORT ?? 5000);
  const healthPort = Number(env.LAYOUT_BOT_HEALTH_PORT ?? 5100);
  return [
    {
      ...common,
      name: 'coinsync-web',
      instances: webInstances,
      // pm2 gives instance i PORT = LAYOUT_WEB_PORT + i.
      increment_var: 'PORT',
      env_production: { NODE_ENV: 'production', ROLE: 'web', PORT: webPort },
    },
    ...groups.map((ids, n) => ({
      ...common,
      name: `coinsync-bot-${n}`,
      instances: 1,
      env_production: {
        NODE_ENV: 'production',
        ROLE: 'bot',
        SHARD_COUNT: shardCount,
        SHARD_IDS: ids.join(','),
        BOT_HEALTH_PORT: healthPort + n,
      },
    })),
  ];
}

module.exports = {
  apps: process.env.COINSYNC_LAYOUT === 'scaled' ? scaledApps() : [single],
  scaledApps,
};

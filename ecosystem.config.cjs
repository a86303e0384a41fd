// pm2 process file: one process runs the bot, the API and the dashboard.
// Build first (`npm ci && npm run build`, then `npm prune --omit=dev` if you like), then
// `pm2 start ecosystem.config.cjs --env production`. Runs the compiled server: no TypeScript loader.
module.exports = {
  apps: [
    {
      name: 'coinsync',
      script: 'dist/server/main.js',
      interpreter: 'node',
      // V8 heap limits (docs/performance.md, memory; decision 027): old space capped at 160 MB (the live
      // heap after a full GC is ~80-95 MB with 1,000 campaigns and 1,300 guilds; V8 otherwise lets
      // garbage pile up to ~250 MB before collecting it), young generation 8 MB per semi-space. Keep
      // in step with `npm start` in package.json (scripts/production-flags.test.ts checks).
      node_args: '--enable-source-maps --max-old-space-size=160 --max-semi-space-size=8',
      instances: 1,
      exec_mode: 'fork',
      // SQLite and the gateway connection belong to exactly one process.
      autorestart: true,
      max_memory_restart: '512M',
      kill_timeout: 10000,
      env_production: {
        NODE_ENV: 'production',
        PORT: 5000,
      },
    },
  ],
};

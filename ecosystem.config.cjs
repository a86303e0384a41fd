// pm2 process file: one process runs the bot, the API and the dashboard.
// Build first (`npm ci && npm run build`, then `npm prune --omit=dev` if you like), then
// `pm2 start ecosystem.config.cjs --env production`. Runs the compiled server: no TypeScript loader.
module.exports = {
  apps: [
    {
      name: 'coinsync',
      script: 'dist/server/main.js',
      interpreter: 'node',
      node_args: '--enable-source-maps',
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

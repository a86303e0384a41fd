// pm2 process file: one process runs the bot, the API and the dashboard.
// Build first (`npm ci && npm run build`), then `pm2 start ecosystem.config.cjs --env production`.
module.exports = {
  apps: [
    {
      name: 'coinsync',
      script: 'src/main.ts',
      interpreter: 'node',
      interpreter_args: '--import tsx',
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

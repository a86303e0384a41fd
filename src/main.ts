import { ConfigError } from './config.ts';
import { DatabaseIntegrityError } from './db/integrity.ts';
import { startServer } from './server.ts';

try {
  const running = await startServer();
  const mode = running.config.demoMode ? 'demo mode (built-in Discord simulator)' : 'production Discord';
  const { role, shards } = running.config;
  if (role === 'bot')
    running.ctx.logger.info(
      `CoinSync bot process (ROLE=bot, shards ${shards === 'auto' ? 'auto' : `${shards.ids.join(',')} of ${shards.count}`}): health checks at ${running.url}/api/ready — ${mode}`,
    );
  else
    running.ctx.logger.info(
      `CoinSync${role === 'web' ? ' web process (ROLE=web)' : ''} listening on ${running.config.host}:${running.config.port}, open ${running.url} — ${mode}, sessions in ${running.sessions.kind}`,
    );
  if (!running.config.writeLimits)
    running.ctx.logger.warn('write limits are OFF (WRITE_LIMITS=off): load tests only');
  if (running.simulator) running.ctx.logger.info(`Discord simulator at ${running.config.discord.baseUrl}/`);
  const shutdown = (signal: string) => {
    running.ctx.logger.info(`${signal} received, shutting down`);
    // pm2 sends SIGKILL after kill_timeout (10 s); say so first if closing hangs.
    setTimeout(() => {
      running.ctx.logger.error('shutdown took more than 8 s; exiting anyway');
      process.exit(1);
    }, 8000).unref();
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Last resort: the reason of a crash goes to the structured log before the process exits (pm2
  // restarts it). Timers and jobs catch their own errors (src/ops/safe-interval.ts).
  process.on('uncaughtException', (err, origin) => {
    running.ctx.logger.error('uncaught exception; exiting', { origin, error: err });
    process.exit(1);
  });
  process.on('unhandledRejection', (reason) => {
    running.ctx.logger.error('unhandled promise rejection; exiting', { error: reason });
    process.exit(1);
  });
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
} catch (err) {
  if (err instanceof ConfigError || err instanceof DatabaseIntegrityError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

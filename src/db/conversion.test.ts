import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config.ts';
import { startServer } from '../server.ts';
import { startTestApp } from '../test/harness.ts';
import { pgTestsEnabled } from '../test/pg.ts';
import { createLogger } from '../logger.ts';
import { NOT_CONVERTED } from './conversion.ts';

// Until decision 028's conversion is complete, DATABASE_URL and ROLE refuse to start the product —
// before it listens or opens anything — naming the parts that are not converted (never half-running).

const pgEnabled = await pgTestsEnabled();

describe('starting on PostgreSQL before the conversion is complete', () => {
  it('is refused with the parts still to convert, before anything listens', async () => {
    const attempt = startServer({
      port: 0,
      logger: createLogger('silent'),
      background: false,
      env: { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: 'postgres://127.0.0.1:1/nothing-here' },
    });
    await expect(attempt).rejects.toBeInstanceOf(ConfigError);
    await expect(attempt).rejects.toThrow(/DATABASE_URL \(PostgreSQL\) cannot run yet/);
    for (const part of NOT_CONVERTED) await expect(attempt).rejects.toThrow(part);
  });

  it.skipIf(!pgEnabled)('is refused by the test harness with TEST_DB=pg too', async () => {
    await expect(startTestApp({ engine: 'pg' })).rejects.toThrow(/cannot run yet/);
  });
});

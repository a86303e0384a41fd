import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readMetric } from '../metrics.ts';
import { createLogger } from '../logger.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { JobMonitor } from './job-monitor.ts';
import { createReadiness, startReadinessRefresh } from './readiness.ts';

// Issue 29 items 4–5: readiness that sees real failures. A full disk turned sign-ins into errors while
// the heartbeat (one row rewritten into existing WAL pages) stayed green; the coinsync_ready gauge was
// set only when something polled /api/ready; a still-connecting gateway counted as ready for 60 s.

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const sourcesOf = (extra: Partial<Parameters<typeof createReadiness>[0]> = {}) => ({
  store: app.server.ctx.store,
  now: () => app.clock.now(),
  startedAt: app.clock.now(),
  jobs: new JobMonitor(() => app.clock.now()),
  botOff: 'test',
  ...extra,
});

describe('readiness that sees real failures', () => {
  it('the database check fails when the disk is nearly full, before writes do', async () => {
    const databaseDir = path.dirname(app.server.config.databasePath);
    const roomy = await createReadiness(sourcesOf({ databaseDir, minFreeBytes: 1 }))();
    expect(roomy.checks.database).toMatchObject({ ok: true, detail: expect.stringMatching(/MB free$/) });
    // The same disk, with a threshold above what it has: red, saying how much is left.
    const full = await createReadiness(sourcesOf({ databaseDir, minFreeBytes: Number.MAX_SAFE_INTEGER }))();
    expect(full.ready).toBe(false);
    expect(full.checks.database).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^disk nearly full: \d+ MB free \(limit \d+ MB\)$/),
    });
  });

  it('a bot that has not connected since start is not ready (no start-up grace)', async () => {
    const check = createReadiness(sourcesOf({ botOff: undefined, botClient: () => null }));
    const report = await check();
    expect(report.checks.gateway).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^connecting: not connected yet since start/),
    });
  });

  it('refreshes the coinsync_ready gauges on its own schedule and logs when readiness turns red', async () => {
    const logger = createLogger('silent');
    const databaseDir = path.dirname(app.server.config.databasePath);
    const check = createReadiness(sourcesOf({ databaseDir, minFreeBytes: Number.MAX_SAFE_INTEGER }));
    const refresh = startReadinessRefresh(check, { logger, everyMs: 20 });
    try {
      const deadline = Date.now() + 5000;
      while (!logger.lines.some((l) => l.includes('readiness: not ready')) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      refresh.stop();
    }
    // Nobody asked /api/ready: the gauge says 0 for the failing check, and the log names it.
    expect(await readMetric('coinsync_ready', { check: 'database' })).toBe(0);
    expect(logger.lines.filter((l) => l.includes('readiness: not ready'))).toHaveLength(1);
    expect(logger.lines.find((l) => l.includes('readiness: not ready'))).toContain('disk nearly full');
  });
});

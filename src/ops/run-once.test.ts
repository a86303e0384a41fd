import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runJsonWorker } from '../test/json-worker.ts';
import { createPgTestDatabase, pgTestsEnabled, type PgTestDatabase } from '../test/pg.ts';
import { runOncePerPeriod, type RunOnceOutcome } from './run-once.ts';

const HOUR = 3_600_000;

describe.skipIf(!(await pgTestsEnabled()))('periodic jobs run once across processes (PostgreSQL)', () => {
  let database: PgTestDatabase;
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 4 });
    await database.pool.query('CREATE TABLE job_probe (running int NOT NULL, max_running int NOT NULL)');
    await database.pool.query('INSERT INTO job_probe VALUES (0, 0)');
    await database.pool.query(
      'CREATE TABLE job_log (period bigint NOT NULL, runner text NOT NULL, running int NOT NULL)',
    );
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it('runs a job once per period, says done for the rest of the period, and records the outcome', async () => {
    const job = { name: 'prune', periodMs: HOUR };
    let runs = 0;
    const body = () => {
      runs += 1;
      return Promise.resolve();
    };
    expect(await runOncePerPeriod(database.pool, job, 10 * HOUR + 5, body)).toEqual({
      outcome: 'ran',
      period: 10,
    });
    expect(await runOncePerPeriod(database.pool, job, 10 * HOUR + 999_999, body)).toEqual({
      outcome: 'done',
      period: 10,
    });
    expect(await runOncePerPeriod(database.pool, job, 11 * HOUR, body)).toEqual({
      outcome: 'ran',
      period: 11,
    });
    // Another job's periods are its own.
    expect(
      (await runOncePerPeriod(database.pool, { name: 'other', periodMs: HOUR }, 10 * HOUR, body)).outcome,
    ).toBe('ran');
    expect(runs).toBe(3);
    const rows = await database.pool.query<{ period: number; outcome: string }>(
      "SELECT period, outcome FROM job_runs WHERE job = 'prune' ORDER BY period",
    );
    expect(rows.rows).toEqual([
      { period: 10, outcome: 'ok' },
      { period: 11, outcome: 'ok' },
    ]);
  });

  it('says busy while the job runs elsewhere, and a failed run keeps its period and is recorded', async () => {
    const job = { name: 'reconcile', periodMs: HOUR };
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = runOncePerPeriod(database.pool, job, 0, () => held);
    try {
      // Wait until the first run holds the lock (its job_runs row exists), then tick the next period.
      for (;;) {
        const claimed = await database.pool.query("SELECT 1 FROM job_runs WHERE job = 'reconcile'");
        if (claimed.rowCount) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect((await runOncePerPeriod(database.pool, job, HOUR, () => Promise.resolve())).outcome).toBe(
        'busy',
      );
    } finally {
      release();
    }
    expect((await first).outcome).toBe('ran');
    await expect(
      runOncePerPeriod(database.pool, job, HOUR, () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect((await runOncePerPeriod(database.pool, job, HOUR + 1, () => Promise.resolve())).outcome).toBe(
      'done',
    );
    const failed = await database.pool.query(
      "SELECT outcome FROM job_runs WHERE job = 'reconcile' AND period = 1",
    );
    expect(failed.rows).toEqual([{ outcome: 'failed' }]);
  });

  it('3 processes ticking the same job: each period ran exactly once, never two runs at a time', async () => {
    const periods = 12;
    const worker = fileURLToPath(new URL('../test/run-once-worker.ts', import.meta.url));
    const run = (runner: string) =>
      runJsonWorker<Record<RunOnceOutcome, number>>(worker, 'RUN_ONCE_PLAN', {
        url: database.url,
        job: 'invite recheck',
        periods,
        periodMs: HOUR,
        runner,
      });
    const counts = await Promise.all(['a', 'b', 'c'].map(run));
    const log = await database.pool.query<{ period: number; n: number }>(
      'SELECT period, COUNT(*)::int AS n FROM job_log GROUP BY period ORDER BY period',
    );
    expect(log.rows).toEqual(Array.from({ length: periods }, (_, period) => ({ period, n: 1 })));
    const probe = await database.pool.query<{ max_running: number }>('SELECT max_running FROM job_probe');
    expect(probe.rows[0]!.max_running).toBe(1);
    expect(counts.reduce((n, c) => n + c.ran, 0)).toBe(periods);
    // 6 ticks per period (2 in each process) and one run: the other ticks were turned away.
    expect(counts.reduce((n, c) => n + c.done, 0)).toBe(periods * 5);
    const runs = await database.pool.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM job_runs WHERE job = 'invite recheck' AND outcome = 'ok'",
    );
    expect(runs.rows[0]!.n).toBe(periods);
  }, 60_000);
});

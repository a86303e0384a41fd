import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ManualClock, MINUTE } from './clock.ts';
import { createLogger } from './logger.ts';
import {
  INVITE_RECHECK_EVERY_MS,
  JOB,
  jobsForRole,
  runOnceFor,
  startPeriodicJobs,
  type JobSpec,
  type PeriodicJobs,
} from './background.ts';
import { JobMonitor } from './ops/job-monitor.ts';
import { createInProcessRunOnce, createPgRunOnce, type RunOnce } from './ops/run-once.ts';
import { createPgTestDatabase, pgTestsEnabled, type PgTestDatabase } from './test/pg.ts';
import { openPgStore } from './db/pg-store.ts';
import { createTestStore } from './test/db.ts';

// Which periodic jobs each role runs (decision 028), and how their runs are let through: every run in
// one process (SQLite), once per period across bot processes (PostgreSQL, decision 030).

const GLOBAL = [
  JOB.inviteRecheck,
  JOB.prune,
  JOB.inviteStats,
  JOB.stripeReconcile,
  JOB.retentionSample,
  JOB.notify,
  JOB.reminders,
];

describe('jobs by role', () => {
  it('the Stripe reconciliation: every 10 min, first after a minute; a shorter period (drills) runs first after one period', () => {
    const stripe = (ms?: number) =>
      jobsForRole('all', 'auto', undefined, ms).find((j) => j.name === JOB.stripeReconcile);
    expect(stripe()).toMatchObject({ periodMs: 10 * MINUTE, firstAfterMs: MINUTE });
    expect(stripe(10_000)).toMatchObject({ periodMs: 10_000, firstAfterMs: 10_000 });
  });

  it('web runs none; all and bot run reconciliation and the global jobs', () => {
    expect(jobsForRole('web', 'auto')).toEqual([]);
    expect(jobsForRole('all', 'auto').map((j) => j.name)).toEqual([JOB.reconcile, ...GLOBAL]);
    expect(jobsForRole('bot', 'auto').map((j) => j.name)).toEqual([JOB.reconcile, ...GLOBAL]);
    expect(jobsForRole('all', 'auto').find((j) => j.name === JOB.inviteRecheck)?.periodMs).toBe(
      INVITE_RECHECK_EVERY_MS,
    );
  });

  it('with fixed shards, one reconcile job per shard of the process, scoped to it', () => {
    const jobs = jobsForRole('bot', { ids: [2, 3], count: 4 });
    expect(jobs.map((j) => j.name)).toEqual(['reconcile:shard-2', 'reconcile:shard-3', ...GLOBAL]);
    expect(jobs.filter((j) => j.work === 'reconcile').map((j) => j.shard)).toEqual([
      { id: 2, count: 4 },
      { id: 3, count: 4 },
    ]);
    expect(jobs.filter((j) => j.work !== 'reconcile').every((j) => j.shard === undefined)).toBe(true);
    // ROLE=all with SHARD_COUNT: every shard's job in the one process.
    expect(
      jobsForRole('all', { ids: [0, 1, 2], count: 3 }).filter((j) => j.work === 'reconcile'),
    ).toHaveLength(3);
  });
});

/** A bot process's jobs without their timers: the test ticks them; each run is logged. */
function processJobs(
  name: string,
  specs: JobSpec[],
  runOnce: RunOnce,
  clock: ManualClock,
  log: { job: string; by: string }[],
): { jobs: PeriodicJobs; monitor: JobMonitor } {
  const monitor = new JobMonitor(() => clock.now());
  const jobs = startPeriodicJobs({ logger: createLogger('silent'), clock }, specs, {
    jobs: monitor,
    runOnce,
    timers: false,
    work: async (spec) => {
      log.push({ job: spec.name, by: name });
      await new Promise((r) => setTimeout(r, 5)); // long enough for the other process's tick to overlap
    },
  });
  return { jobs, monitor };
}

const tickAll = async (...processes: PeriodicJobs[]) => {
  for (const p of processes) for (const spec of p.specs) p.tick(spec.name);
  for (const p of processes) await p.idle();
};

const runsOf = (log: { job: string; by: string }[]) => {
  const counts: Record<string, number> = {};
  for (const { job } of log) counts[job] = (counts[job] ?? 0) + 1;
  return counts;
};

describe('in one process (SQLite)', () => {
  it('every tick runs, as before: no other process could have run it', async () => {
    const clock = new ManualClock();
    const log: { job: string; by: string }[] = [];
    const { jobs, monitor } = processJobs(
      'all',
      jobsForRole('all', 'auto'),
      createInProcessRunOnce(),
      clock,
      log,
    );
    await tickAll(jobs);
    await tickAll(jobs);
    expect(runsOf(log)).toEqual(Object.fromEntries([JOB.reconcile, ...GLOBAL].map((n) => [n, 2])));
    expect(monitor.get(JOB.reconcile)?.runs).toBe(2);
    await jobs.stop();
  });

  it('never runs a job twice at once', async () => {
    const runOnce = createInProcessRunOnce();
    let release!: () => void;
    const held = runOnce.exclusive('reconcile', () => new Promise<void>((r) => (release = r)));
    expect(await runOnce.exclusive('reconcile', () => Promise.resolve())).toBe('busy');
    expect(await runOnce.tick({ name: 'reconcile', periodMs: MINUTE }, 0, () => Promise.resolve())).toBe(
      'busy',
    );
    expect(await runOnce.exclusive('invite recheck', () => Promise.resolve())).toBe('ran');
    release();
    expect(await held).toBe('ran');
  });
});

describe('runOnceFor (the default of startBackground)', () => {
  it('on SQLite lets every tick of the one process through', async () => {
    const t = await createTestStore('sqlite');
    try {
      const runOnce = runOnceFor(t.store);
      const job = { name: 'run-once-for sqlite', periodMs: MINUTE };
      expect(runOnce.kind).toBe('in-process');
      expect(await runOnce.tick(job, 0, () => Promise.resolve())).toBe('ran');
      expect(await runOnce.tick(job, 0, () => Promise.resolve())).toBe('ran');
    } finally {
      await t.dispose();
    }
  });
});

describe.skipIf(!(await pgTestsEnabled()))('across bot processes (PostgreSQL)', () => {
  let database: PgTestDatabase;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    database = await createPgTestDatabase({ max: 2 });
  });
  afterAll(async () => {
    for (const pool of pools) await pool.end();
    await database?.dispose();
  });
  /** Its own pool per "process": advisory locks are per connection, as across processes. */
  const pgRunOnce = (runner: string) => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    // The teardown drops the database WITH (FORCE): an idle connection ended then is expected, not an
    // uncaught error (the product's pools listen the same way, src/db/pg-client.ts).
    pool.on('error', () => undefined);
    pools.push(pool);
    return createPgRunOnce(pool, runner);
  };

  it('two bot processes, shards 0 and 1 of 2: each shard reconciled by its own, every global job once per period', async () => {
    const clock = new ManualClock();
    const log: { job: string; by: string }[] = [];
    const a = processJobs(
      'bot-0',
      jobsForRole('bot', { ids: [0], count: 2 }),
      pgRunOnce('bot-0'),
      clock,
      log,
    );
    const b = processJobs(
      'bot-1',
      jobsForRole('bot', { ids: [1], count: 2 }),
      pgRunOnce('bot-1'),
      clock,
      log,
    );
    const periods = 3;
    for (let p = 0; p < periods; p++) {
      // Both processes tick every job at once, twice in the period.
      await tickAll(a.jobs, b.jobs);
      await tickAll(b.jobs, a.jobs);
      clock.advance(INVITE_RECHECK_EVERY_MS); // the longest period: every job has a new one
    }
    expect(runsOf(log)).toEqual({
      'reconcile:shard-0': periods,
      'reconcile:shard-1': periods,
      ...Object.fromEntries(GLOBAL.map((n) => [n, periods])),
    });
    expect(log.filter((r) => r.job === 'reconcile:shard-0').every((r) => r.by === 'bot-0')).toBe(true);
    expect(log.filter((r) => r.job === 'reconcile:shard-1').every((r) => r.by === 'bot-1')).toBe(true);
    const recorded = await database.pool.query<{ job: string; n: number }>(
      "SELECT job, count(*)::int AS n FROM job_runs WHERE outcome = 'ok' GROUP BY job ORDER BY job",
    );
    expect(recorded.rows).toEqual(
      [
        'featured intent and address prune',
        'invite recheck',
        'invite stats',
        'notification delivery',
        'reconcile:shard-0',
        'reconcile:shard-1',
        'reminders',
        'retention sample',
        'stripe reconcile',
      ].map((job) => ({ job, n: periods })),
    );
    // A run asked for outside the timer (a shard reconnected, an operator) is not skipped for the period.
    const before = log.length;
    a.jobs.trigger('reconcile:shard-0');
    await a.monitor.run(JOB.inviteRecheck);
    await a.jobs.idle();
    // Both run (in whichever order their locks come back).
    expect(
      log
        .slice(before)
        .map((r) => r.job)
        .sort(),
    ).toEqual([JOB.inviteRecheck, 'reconcile:shard-0']);
    await a.jobs.stop();
    await b.jobs.stop();
  }, 60_000);

  it('runOnceFor a PostgreSQL store: one run per period across two processes (stores) on one database', async () => {
    const stores = [await openPgStore(database.url, { max: 2 }), await openPgStore(database.url, { max: 2 })];
    try {
      const job = { name: 'run-once-for pg', periodMs: MINUTE };
      let runs = 0;
      const run = () => Promise.resolve(void (runs += 1));
      const [first, second] = stores.map((store) => runOnceFor(store));
      expect(first!.kind).toBe('postgresql');
      expect(await first!.tick(job, 0, run)).toBe('ran');
      expect(await second!.tick(job, 1, run)).toBe('done');
      expect(await second!.tick(job, MINUTE, run)).toBe('ran');
      expect(runs).toBe(2);
    } finally {
      for (const store of stores) await store.close();
    }
  });
});

import { hostname } from 'node:os';
import type pg from 'pg';

// How a periodic job's run is let through (decisions 028 and 030). src/background.ts asks this for every
// run; the timers and serial jobs around it stay as they are.
//
// - `tick` is the timer's run: once per job and period across every process that runs the job.
// - `exclusive` is a run asked for outside the timer (a shard reconnected, an operator's run): never
//   two at once, but not skipped because the period already ran.
//
// In one process (SQLite, ROLE=all) the serial job already keeps a job from overlapping itself and no
// other process runs it, so the in-process implementation lets every run through except one that
// would overlap a run in progress. On PostgreSQL an advisory lock per job and a job_runs row per period
// make the same promise across processes (below). The two are not one meaning written twice: one is a
// set in memory, the other a session lock and a table only PostgreSQL has (decision 057).

export type RunOnceOutcome = 'ran' | 'done' | 'busy';

export interface PeriodicJob {
  /** As in logs, metrics and the readiness report (src/background.ts JOB names). */
  name: string;
  periodMs: number;
}

export interface RunOnceResult {
  outcome: RunOnceOutcome;
  period: number;
}

export interface RunOnce {
  readonly kind: 'in-process' | 'postgresql';
  tick(job: PeriodicJob, now: number, fn: () => Promise<unknown>): Promise<RunOnceOutcome>;
  exclusive(name: string, fn: () => Promise<unknown>): Promise<'ran' | 'busy'>;
}

export function createInProcessRunOnce(): RunOnce {
  const running = new Set<string>();
  const exclusive = async (name: string, fn: () => Promise<unknown>): Promise<'ran' | 'busy'> => {
    if (running.has(name)) return 'busy';
    running.add(name);
    try {
      await fn();
      return 'ran';
    } finally {
      running.delete(name);
    }
  };
  return {
    kind: 'in-process',
    tick: (job, _now, fn) => exclusive(job.name, fn),
    exclusive,
  };
}

// ---------------------------------------------------------------- PostgreSQL
//
// Periodic jobs that run once across processes on PostgreSQL (decisions 028 and 030). Each process keeps
// its timer (startSafeInterval) and serial job (createSerialJob) as today; the job's body is wrapped in
// runOncePerPeriod, which lets one run per job and period through, whichever process ticks first:
//
// - a session advisory lock per job (pg_try_advisory_lock) keeps two runs of the same job from
//   overlapping, in any processes; a tick that finds the job running elsewhere returns 'busy' at once;
// - a row in job_runs (primary key job + period) records that the period's run was claimed; a later
//   tick in the same period, anywhere, returns 'done'.
//
// At most once per period: a process that dies mid-run leaves its period claimed (outcome null), and the
// next period runs. Every job here is an idempotent sweep (reconcile, invite recheck, prunes), so a lost
// period only delays work. SQLite all-in-one needs none of this: one process runs the jobs.

/** First key of the two-int advisory locks of periodic jobs ("job" in ASCII); the second is hashtext(name). */
export const JOB_LOCK_CLASS = 0x6a6f62;
/** Rows of job_runs kept per job (older periods are deleted by the run that claims a new one). */
const KEEP_PERIODS = 1000;

export const defaultRunner = (): string => `${hostname()}:${process.pid}`;

/**
 * Runs `fn` if no process has run `job` in the period `now` falls in and none is running it now.
 * Resolves with what happened; rejects with `fn`'s error after recording the run as failed.
 */
export async function runOncePerPeriod(
  pool: pg.Pool,
  job: PeriodicJob,
  now: number,
  fn: () => Promise<unknown>,
  runner: string = defaultRunner(),
): Promise<RunOnceResult> {
  if (!Number.isSafeInteger(job.periodMs) || job.periodMs <= 0) throw new RangeError('periodMs must be > 0');
  const period = Math.floor(now / job.periodMs);
  const outcome = await withJobLock(pool, job.name, async (client): Promise<RunOnceOutcome> => {
    const claim = await client.query(
      `INSERT INTO job_runs (job, period, runner, started_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (job, period) DO NOTHING RETURNING period`,
      [job.name, period, runner, now],
    );
    if (claim.rowCount === 0) return 'done';
    await client.query('DELETE FROM job_runs WHERE job = $1 AND period < $2', [
      job.name,
      period - KEEP_PERIODS,
    ]);
    let outcome = 'ok';
    try {
      await fn();
    } catch (err) {
      outcome = 'failed';
      throw err;
    } finally {
      await client.query(
        'UPDATE job_runs SET finished_at = $3, outcome = $4 WHERE job = $1 AND period = $2',
        [job.name, period, Date.now(), outcome],
      );
    }
    return 'ran';
  });
  return { outcome, period };
}

/**
 * Runs `fn` unless a run of `name` is in progress in any process ('busy'), without claiming a period:
 * for runs asked for outside the timer — a shard's reconcile after its gateway session (re)connected,
 * when events may have been missed, or an operator's run — which must not be skipped because the
 * period's timer run already happened.
 */
export function runExclusive(
  pool: pg.Pool,
  name: string,
  fn: () => Promise<unknown>,
): Promise<'ran' | 'busy'> {
  return withJobLock(pool, name, async () => {
    await fn();
    return 'ran' as const;
  });
}

/** `fn` on a connection holding the job's advisory lock, released after; 'busy' when another session holds it. */
async function withJobLock<T>(
  pool: pg.Pool,
  name: string,
  fn: (client: pg.PoolClient) => Promise<T>,
): Promise<T | 'busy'> {
  const client = await pool.connect();
  let locked = false;
  try {
    const lock = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
      [JOB_LOCK_CLASS, name],
    );
    locked = lock.rows[0]?.locked === true;
    if (!locked) return 'busy';
    return await fn(client);
  } finally {
    if (locked) {
      await client
        .query('SELECT pg_advisory_unlock($1, hashtext($2))', [JOB_LOCK_CLASS, name])
        .catch(() => undefined);
    }
    client.release();
  }
}

export function createPgRunOnce(pool: pg.Pool, runner: string = defaultRunner()): RunOnce {
  return {
    kind: 'postgresql',
    async tick(job, now, fn) {
      return (await runOncePerPeriod(pool, job, now, fn, runner)).outcome;
    },
    exclusive: (name, fn) => runExclusive(pool, name, fn),
  };
}

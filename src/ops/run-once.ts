import type pg from 'pg';
import {
  defaultRunner,
  runExclusive,
  runOncePerPeriod,
  type PeriodicJob,
  type RunOnceOutcome,
} from './run-once-pg.ts';

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
// make the same promise across processes (src/ops/run-once-pg.ts).

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

export function createPgRunOnce(pool: pg.Pool, runner: string = defaultRunner()): RunOnce {
  return {
    kind: 'postgresql',
    async tick(job, now, fn) {
      return (await runOncePerPeriod(pool, job, now, fn, runner)).outcome;
    },
    exclusive: (name, fn) => runExclusive(pool, name, fn),
  };
}

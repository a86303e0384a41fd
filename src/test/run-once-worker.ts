// A child process of src/ops/run-once.test.ts: ticks one periodic job through runOncePerPeriod for
// periods 0 … periods-1, two ticks at once per period and again while the job is busy elsewhere, like
// several processes' timers would. The job body records itself in job_probe and holds the job briefly
// (pg_sleep), so overlapping runs would be seen. Prints a JSON line of its outcomes.
import pg from 'pg';
import { runOncePerPeriod, type RunOnceOutcome } from '../ops/run-once.ts';

interface Plan {
  url: string;
  job: string;
  periods: number;
  periodMs: number;
  runner: string;
}

const plan = JSON.parse(process.env.RUN_ONCE_PLAN ?? '') as Plan;
const pool = new pg.Pool({ connectionString: plan.url, max: 4 });
const counts: Record<RunOnceOutcome, number> = { ran: 0, done: 0, busy: 0 };
const job = { name: plan.job, periodMs: plan.periodMs };
const body = async (period: number) => {
  const started = await pool.query<{ running: number }>(
    'UPDATE job_probe SET running = running + 1, max_running = GREATEST(max_running, running + 1) RETURNING running',
  );
  await pool.query('INSERT INTO job_log (period, runner, running) VALUES ($1, $2, $3)', [
    period,
    plan.runner,
    started.rows[0]!.running,
  ]);
  await pool.query('SELECT pg_sleep(0.01)');
  await pool.query('UPDATE job_probe SET running = running - 1');
};

const tick = async (period: number) => {
  // Anywhere inside the period: the period comes from the clock, not from the caller.
  const now = period * plan.periodMs + Math.floor(Math.random() * plan.periodMs);
  for (;;) {
    const result = await runOncePerPeriod(pool, job, now, () => body(period), plan.runner);
    counts[result.outcome] += 1;
    if (result.period !== period) throw new Error(`period ${result.period} for ${period}`);
    if (result.outcome !== 'busy') return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

for (let period = 0; period < plan.periods; period += 1) await Promise.all([tick(period), tick(period)]);
await pool.end();
process.stdout.write(`${JSON.stringify(counts)}\n`);

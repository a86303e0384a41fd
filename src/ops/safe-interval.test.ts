import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.ts';
import { JobMonitor } from './job-monitor.ts';
import { startSafeInterval } from './safe-interval.ts';
import { createSerialJob } from '../bot/serial-job.ts';

// Unit level, with fake timers: the real setInterval path, made to throw every way it can.

const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);
beforeEach(() => {
  vi.useFakeTimers();
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  vi.useRealTimers();
  process.off('unhandledRejection', onUnhandled);
});

describe('startSafeInterval', () => {
  it('survives a synchronous throw and a rejection on every tick, logging and counting each', async () => {
    const logger = createLogger('silent');
    const jobs = new JobMonitor();
    let calls = 0;
    const timer = startSafeInterval(
      'flaky',
      1000,
      () => {
        calls += 1;
        if (calls % 2 === 1) throw new Error(`sync boom ${calls}`);
        return Promise.reject(new Error(`async boom ${calls}`));
      },
      { logger, jobs },
    );
    await vi.advanceTimersByTimeAsync(4000);
    timer.stop();
    expect(calls).toBe(4);
    expect(jobs.get('flaky')).toMatchObject({ consecutiveFailures: 4, runs: 4, lastError: 'async boom 4' });
    const errors = logger.lines.filter((l) => l.includes('ERROR flaky failed'));
    expect(errors).toHaveLength(4);
    expect(errors[0]).toContain('sync boom 1');
    expect(unhandled).toEqual([]);
  });

  it('resets the failure count on success and never overlaps a slow run', async () => {
    const logger = createLogger('silent');
    const jobs = new JobMonitor();
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const timer = startSafeInterval(
      'slow',
      1000,
      async () => {
        calls += 1;
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 2500));
        running -= 1;
        if (calls === 1) throw new Error('first fails');
      },
      { logger, jobs },
    );
    await vi.advanceTimersByTimeAsync(10_000);
    timer.stop();
    expect(maxRunning).toBe(1);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(jobs.get('slow')?.consecutiveFailures).toBe(0);
    expect(jobs.get('slow')?.lastError).toBe('first fails');
  });

  it('survives a logger that throws while reporting the failure', async () => {
    const throwingLogger = {
      ...createLogger('silent'),
      error: () => {
        throw new Error('log sink broken');
      },
    };
    const timer = startSafeInterval(
      'noisy',
      1000,
      () => {
        throw new Error('boom');
      },
      { logger: throwingLogger },
    );
    await vi.advanceTimersByTimeAsync(3000);
    timer.stop();
    expect(unhandled).toEqual([]);
  });
});

describe('createSerialJob', () => {
  it('contains a run that throws synchronously', async () => {
    const logger = createLogger('silent');
    const jobs = new JobMonitor();
    const job = createSerialJob(
      'sync thrower',
      logger,
      () => {
        throw new Error('thrown before any promise');
      },
      { jobs },
    );
    expect(() => job.trigger()).not.toThrow();
    await job.idle();
    expect(jobs.get('sync thrower')).toMatchObject({
      consecutiveFailures: 1,
      lastError: 'thrown before any promise',
    });
    expect(logger.lines.some((l) => l.includes('sync thrower failed'))).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

describe('a failing job names the reason, not only the wrapper', () => {
  it('logs and records the cause chain of a wrapped error (drizzle keeps the driver error in cause)', async () => {
    const logger = createLogger('silent');
    const jobs = new JobMonitor();
    const driver = new Error('relation "job_runs" does not exist');
    const timer = startSafeInterval(
      'wrapped',
      1000,
      () => Promise.reject(new Error('Failed query: select 1 from job_runs', { cause: driver })),
      { logger, jobs },
    );
    await vi.advanceTimersByTimeAsync(1000);
    timer.stop();
    expect(jobs.get('wrapped')?.lastError).toBe(
      'Failed query: select 1 from job_runs — caused by: relation "job_runs" does not exist',
    );
    const line = logger.lines.find((l) => l.includes('ERROR wrapped failed'));
    expect(line).toContain('caused by: relation \\"job_runs\\" does not exist');
  });
});

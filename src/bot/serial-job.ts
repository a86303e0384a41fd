import type { Logger } from '../logger.ts';
import { recordJobRun } from '../metrics.ts';
import type { JobMonitor } from '../ops/job-monitor.ts';
import { errorDetail } from '../ops/error-text.ts';

export interface SerialJob {
  /** Runs the job now, or once more right after the current run when one is in progress. */
  trigger(): void;
  /** Resolves when no run is in progress or queued. */
  idle(): Promise<void>;
}

/**
 * A background job that never overlaps itself and never throws into the event loop (not even when
 * `run` throws synchronously). With a JobMonitor, runs are counted there (readiness, metrics).
 */
export function createSerialJob(
  name: string,
  logger: Logger,
  run: () => Promise<unknown>,
  options: { jobs?: JobMonitor } = {},
): SerialJob {
  const { jobs } = options;
  let current: Promise<void> | null = null;
  let again = false;
  const start = (): void => {
    let running: Promise<unknown>;
    try {
      running = run();
    } catch (err) {
      running = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    current = running
      .then(
        (outcome) => {
          if (jobs) jobs.succeeded(name);
          else recordJobRun(name, 'success');
          logger.debug(`${name} finished`, { outcome });
        },
        (err: unknown) => {
          if (jobs) jobs.failed(name, err);
          else recordJobRun(name, 'failure');
          logger.error(`${name} failed`, {
            job: name,
            consecutiveFailures: jobs?.get(name)?.consecutiveFailures,
            error: errorDetail(err),
          });
        },
      )
      .catch(() => undefined)
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          start();
        }
      });
  };
  const job: SerialJob = {
    trigger() {
      if (current) again = true;
      else start();
    },
    async idle() {
      while (current) await current;
    },
  };
  jobs?.register(name, async () => {
    job.trigger();
    await job.idle();
  });
  return job;
}

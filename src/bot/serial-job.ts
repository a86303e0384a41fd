import type { Logger } from '../logger.ts';
import { recordJobRun } from '../metrics.ts';

export interface SerialJob {
  /** Runs the job now, or once more right after the current run when one is in progress. */
  trigger(): void;
  /** Resolves when no run is in progress or queued. */
  idle(): Promise<void>;
}

/** A background job that never overlaps itself and never throws into the event loop. */
export function createSerialJob(name: string, logger: Logger, run: () => Promise<unknown>): SerialJob {
  let current: Promise<void> | null = null;
  let again = false;
  const start = (): void => {
    current = run()
      .then(
        (outcome) => {
          recordJobRun(name, 'success');
          logger.debug(`${name} finished`, { outcome });
        },
        (err: unknown) => {
          recordJobRun(name, 'failure');
          logger.error(`${name} failed`, { error: err instanceof Error ? err.stack : String(err) });
        },
      )
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          start();
        }
      });
  };
  return {
    trigger() {
      if (current) again = true;
      else start();
    },
    async idle() {
      while (current) await current;
    },
  };
}

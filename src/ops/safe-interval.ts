import type { Logger } from '../logger.ts';
import type { JobMonitor } from './job-monitor.ts';
import { errorDetail } from './error-text.ts';

export interface SafeInterval {
  /** Runs the job now (unless a run is still in progress) and resolves when that run is over. */
  runNow(): Promise<void>;
  stop(): void;
}

export interface SafeIntervalOptions {
  logger: Logger;
  /** Where successes and failures are counted (readiness, metrics). */
  jobs?: JobMonitor;
  /** Keep the process alive for this timer (default false: timers never hold shutdown). */
  ref?: boolean;
}

/**
 * setInterval for background work that can never take the process down: a synchronous throw or a
 * rejected promise is caught, logged with the job's name and counted; the timer keeps running. A run
 * that is still in progress when the next tick comes is not started twice. Every timer in the
 * product goes through here (see the test that makes each one throw).
 */
export function startSafeInterval(
  name: string,
  everyMs: number,
  run: () => unknown,
  options: SafeIntervalOptions,
): SafeInterval {
  const { logger, jobs } = options;
  let current: Promise<void> | null = null;
  let stopped = false;

  const tick = (): Promise<void> => {
    if (current) return current;
    const attempt = async () => {
      try {
        await run();
        if (jobs) jobs.succeeded(name);
        else logger.debug(`${name} finished`);
      } catch (err) {
        jobs?.failed(name, err);
        const failures = jobs?.get(name)?.consecutiveFailures;
        logger.error(`${name} failed`, {
          job: name,
          ...(failures !== undefined ? { consecutiveFailures: failures } : {}),
          error: errorDetail(err),
        });
      }
    };
    current = attempt()
      // Even a logger that throws must not become an unhandled rejection (which ends the process).
      .catch(() => undefined)
      .finally(() => {
        current = null;
      });
    return current;
  };

  jobs?.register(name, tick);
  const timer = setInterval(() => {
    if (!stopped) void tick();
  }, everyMs);
  if (!options.ref) timer.unref();

  return {
    runNow: tick,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

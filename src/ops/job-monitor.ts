import { recordJobRun } from '../metrics.ts';
import { errorMessage } from './error-text.ts';

/** Consecutive failures of one job after which readiness fails. */
export const FAILURES_BEFORE_UNREADY = 3;

export interface JobState {
  name: string;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
  lastError: string | null;
  consecutiveFailures: number;
  runs: number;
}

/**
 * Remembers how each background job and timer is doing, for the readiness check: one failure is
 * logged, a job failing FAILURES_BEFORE_UNREADY times in a row makes /api/ready fail until it
 * succeeds again. One instance per running server (tests run several servers in one process).
 */
export class JobMonitor {
  private readonly jobs = new Map<string, JobState>();
  private readonly runners = new Map<string, () => Promise<void>>();

  constructor(private readonly now: () => number = Date.now) {}

  private state(name: string): JobState {
    let state = this.jobs.get(name);
    if (!state) {
      state = {
        name,
        lastSuccessAt: null,
        lastFailureAt: null,
        lastError: null,
        consecutiveFailures: 0,
        runs: 0,
      };
      this.jobs.set(name, state);
    }
    return state;
  }

  /**
   * Makes a job known before its first run, so the readiness report lists it. `runNow` runs it at once
   * and resolves when that run is over (operators' tooling and the fault tests use it).
   */
  register(name: string, runNow?: () => Promise<void>): void {
    this.state(name);
    if (runNow) this.runners.set(name, runNow);
  }

  /** Runs a registered job now; resolves when its run is over, whatever the outcome. */
  async run(name: string): Promise<void> {
    const runNow = this.runners.get(name);
    if (!runNow) throw new Error(`no job named ${name}`);
    await runNow();
  }

  succeeded(name: string): void {
    const state = this.state(name);
    state.runs += 1;
    state.lastSuccessAt = this.now();
    state.consecutiveFailures = 0;
    recordJobRun(name, 'success');
  }

  failed(name: string, err: unknown): void {
    const state = this.state(name);
    state.runs += 1;
    state.lastFailureAt = this.now();
    state.lastError = errorMessage(err);
    state.consecutiveFailures += 1;
    recordJobRun(name, 'failure');
  }

  get(name: string): JobState | undefined {
    const state = this.jobs.get(name);
    return state ? { ...state } : undefined;
  }

  list(): JobState[] {
    return [...this.jobs.values()].map((s) => ({ ...s }));
  }
}

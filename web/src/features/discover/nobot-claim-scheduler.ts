import type { ClaimNoBotResponse } from '@shared/join-schemas.ts';
import { errorStatus } from '../../lib/api.ts';
import { readPendingClaims, removePendingClaim, savePendingClaim } from './pending-claims.ts';

export interface ClaimSchedulerDeps {
  claim(serverId: string): Promise<ClaimNoBotResponse>;
  onEarned(earned: string, serverId: string): void;
  /** A refusal or an outage; `willRetry` is false when the entry was dropped. */
  onFailed(error: unknown, willRetry: boolean): void;
  now?: () => number;
}

/** When the server says "too early" (its clock or the join time differ from ours), try again this much later. */
export const TOO_EARLY_RETRY_MS = 2_000;
/** "Too early" answers accepted in one page session before the entry waits for the next page load. */
export const MAX_TOO_EARLY_RETRIES = 15;

/**
 * Runs pending no-bot claims at their due time. Lives outside React so a claim still fires when the
 * member leaves Discover before the 10 s are up; one timer per server and never two requests at once.
 * Outcomes: success or a definitive refusal (4xx) removes the entry; 425 reschedules; a network or
 * server error keeps the entry for the next page load.
 */
export class NobotClaimScheduler {
  private userId: string | null = null;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<string>();
  private readonly tooEarly = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly deps: ClaimSchedulerDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Stores a claim due `delayMs` from now and schedules it. */
  add(userId: string, serverId: string, delayMs: number): void {
    this.switchUser(userId);
    const claim = { serverId, claimAt: this.now() + delayMs };
    savePendingClaim(userId, claim);
    this.tooEarly.delete(serverId);
    this.schedule(serverId, claim.claimAt);
  }

  /** Page load: due claims run now, the others at their due time. */
  resume(userId: string): void {
    this.switchUser(userId);
    for (const claim of readPendingClaims(userId)) {
      if (!this.timers.has(claim.serverId) && !this.inFlight.has(claim.serverId))
        this.schedule(claim.serverId, claim.claimAt);
    }
  }

  /** Forgets timers (sign-out, another account). Stored entries stay for their owner's next visit. */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.tooEarly.clear();
  }

  private switchUser(userId: string): void {
    if (this.userId !== userId) {
      this.stop();
      this.userId = userId;
    }
  }

  private schedule(serverId: string, claimAt: number): void {
    const existing = this.timers.get(serverId);
    if (existing) clearTimeout(existing);
    const delay = Math.max(0, claimAt - this.now());
    this.timers.set(
      serverId,
      setTimeout(() => {
        this.timers.delete(serverId);
        void this.run(serverId);
      }, delay),
    );
  }

  private async run(serverId: string): Promise<void> {
    const userId = this.userId;
    if (!userId || this.inFlight.has(serverId)) return;
    this.inFlight.add(serverId);
    try {
      const { earned } = await this.deps.claim(serverId);
      removePendingClaim(userId, serverId);
      this.tooEarly.delete(serverId);
      this.deps.onEarned(earned, serverId);
    } catch (err) {
      const status = errorStatus(err);
      if (status === 425) {
        const tries = (this.tooEarly.get(serverId) ?? 0) + 1;
        this.tooEarly.set(serverId, tries);
        if (tries <= MAX_TOO_EARLY_RETRIES && this.userId === userId)
          this.schedule(serverId, this.now() + TOO_EARLY_RETRY_MS);
        return;
      }
      const definitive = status !== null && status >= 400 && status < 500 && status !== 401 && status !== 429;
      if (definitive) removePendingClaim(userId, serverId);
      this.deps.onFailed(err, !definitive);
    } finally {
      this.inFlight.delete(serverId);
    }
  }
}

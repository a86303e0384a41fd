import type { AppContext } from '../context.ts';
import type { Logger } from '../logger.ts';
import { settleRemovals, type Removal } from './member-removed.ts';
import { errorDetail } from '../ops/error-text.ts';

// Removals of paid members are settled per guild in batches: the first removal opens a batch, every
// removal of that guild in the next `firstLookMs` joins it, and the batch costs one audit-log read
// (3 requests, paged) however many members left. Removals the audit log does not explain yet get one
// second look after `secondLookMs` (Discord writes entries asynchronously, sometimes late); only then
// is a removal charged as a voluntary leave. Arrivals are never queued behind this wait (issue 13
// item 7): only an arrival into a guild whose campaigns have no slot left waits for the guild's open
// batch, since a penalised leave in it may give that slot back.

export interface RemovalBatcherOptions {
  firstLookMs: number;
  secondLookMs: number;
}

interface Batch {
  removals: Removal[];
  settled: Promise<void>;
}

export class RemovalBatcher {
  private readonly open = new Map<string, Batch>();
  /** First looks under way per guild (a batch leaves `open` when its look starts). */
  private readonly settling = new Map<string, Set<Promise<void>>>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly logger: Logger,
    private readonly options: RemovalBatcherOptions,
  ) {}

  add(guildId: string, removal: Removal): void {
    const batch = this.open.get(guildId);
    if (batch) {
      batch.removals.push(removal);
      return;
    }
    const created: Batch = { removals: [removal], settled: Promise.resolve() };
    created.settled = this.run(guildId, created);
    this.open.set(guildId, created);
    this.track(created.settled);
    let set = this.settling.get(guildId);
    if (!set) this.settling.set(guildId, (set = new Set()));
    set.add(created.settled);
    void created.settled.finally(() => {
      set.delete(created.settled);
      if (set.size === 0 && this.settling.get(guildId) === set) this.settling.delete(guildId);
    });
  }

  /** Resolves when the guild's batches (open or being looked at) have had their first look. */
  async pending(guildId: string): Promise<void> {
    const waits = [...(this.settling.get(guildId) ?? [])];
    const open = this.open.get(guildId);
    if (open) waits.push(open.settled);
    await Promise.allSettled(waits);
  }

  hasPending(guildId: string): boolean {
    return this.open.has(guildId) || (this.settling.get(guildId)?.size ?? 0) > 0;
  }

  private async run(guildId: string, batch: Batch): Promise<void> {
    await sleep(this.options.firstLookMs);
    // Removals arriving from now on open a new batch.
    if (this.open.get(guildId) === batch) this.open.delete(guildId);
    try {
      const { deferred } = await settleRemovals(
        this.ctx,
        guildId,
        batch.removals,
        this.options.secondLookMs <= 0,
      );
      if (deferred.length > 0) this.track(this.secondLook(guildId, deferred));
    } catch (err) {
      this.logger.error('bot: settling removals failed', {
        guildId,
        error: errorDetail(err),
      });
    }
  }

  private async secondLook(guildId: string, removals: Removal[]): Promise<void> {
    await sleep(this.options.secondLookMs);
    try {
      await settleRemovals(this.ctx, guildId, removals, true);
    } catch (err) {
      this.logger.error('bot: settling removals failed', {
        guildId,
        error: errorDetail(err),
      });
    }
  }

  private track(task: Promise<void>): void {
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  /** Waits for every open batch and second look (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.open.size > 0 || this.inFlight.size > 0) {
      await Promise.allSettled([...[...this.open.values()].map((b) => b.settled), ...this.inFlight]);
    }
  }
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

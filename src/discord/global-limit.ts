// The bot's global request limit (Discord: 50 requests a second per bot token), shared by the calls
// people wait on and background work, with people first (decision 037). Background takes whatever
// people leave, so a sweep runs at the full 50/s when nobody waits; a person's call is granted the
// next free slot ahead of any queued background call. Background calls are spaced evenly (one per
// 1000/perSecond ms) so they never fill a whole second's slots at once: a person arriving during a
// flood waits at most one spacing for a slot, not a second.

type Lane = 'person' | 'background';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export interface GlobalLimitStats {
  granted: Record<Lane, number>;
  /** Calls waiting for a slot now. */
  queued: Record<Lane, number>;
}

export class GlobalLimit {
  private readonly sent: number[] = [];
  private readonly queues: Record<Lane, Waiter[]> = { person: [], background: [] };
  private nextBackgroundAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly granted: Record<Lane, number> = { person: 0, background: 0 };
  private readonly spacingMs: number;

  constructor(
    readonly perSecond = 50,
    private readonly windowMs = 1000,
  ) {
    this.spacingMs = windowMs / perSecond;
  }

  /** Resolves when a request of `lane` may be sent (rejects with an AbortError if `signal` aborts first). */
  acquire(lane: Lane, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError());
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const queue = this.queues[lane];
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(abortError());
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queues[lane].push(waiter);
      this.pump();
    });
  }

  stats(): GlobalLimitStats {
    return {
      granted: { ...this.granted },
      queued: { person: this.queues.person.length, background: this.queues.background.length },
    };
  }

  /** Grants free slots (people first), then sleeps until the next one frees up. */
  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    for (;;) {
      const now = Date.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - this.windowMs) this.sent.shift();
      const free = this.sent.length < this.perSecond;
      let lane: Lane | null = null;
      if (free && this.queues.person.length > 0) lane = 'person';
      else if (free && this.queues.background.length > 0 && now >= this.nextBackgroundAt) lane = 'background';
      if (lane === null) {
        if (this.queues.person.length === 0 && this.queues.background.length === 0) return;
        const slotAt = free ? now : this.sent[0]! + this.windowMs;
        const at = this.queues.person.length > 0 ? slotAt : Math.max(slotAt, this.nextBackgroundAt);
        this.timer = setTimeout(() => this.pump(), Math.max(1, at - now));
        return;
      }
      const waiter = this.queues[lane].shift()!;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.sent.push(now);
      this.granted[lane] += 1;
      if (lane === 'background') this.nextBackgroundAt = now + this.spacingMs;
      waiter.resolve();
    }
  }
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

import { errorStatus } from './api.ts';

// One app-wide mechanism for "claim after a delay" (no-bot joins: 10 s, social tasks: 15 s; docs/spec/product-spec.md §4).
// Pending claims live in localStorage per signed-in user (docs/spec/product-spec.md §3: `{ serverId | taskId, claimAt }`), so
// they survive reloads; timers live outside React, so a due claim fires on whatever page is open.
// Just before a claim is sent, its kind confirms it is still open (the task still listed, the campaign
// still running): a claim for a removed task or campaign is dropped, never sent.

export interface PendingClaim {
  id: string;
  /** Epoch ms (browser clock) from which the claim is due. */
  claimAt: number;
  /** The server said "not yet, the member must act first" (kind.notYet): retried quietly meanwhile. */
  waiting?: boolean;
}

export interface ClaimKind {
  /** localStorage key prefix; the user id is appended. */
  storagePrefix: string;
  /** Field naming the claimed thing in storage (docs/spec/product-spec.md §3: serverId for no-bot, taskId for social). */
  idField: string;
  /** The rule's delay. The browser's clock may disagree with the server's, so no wait exceeds it. */
  delayMs: number;
  /** Which of `ids` can still be claimed, asked fresh from the server just before sending. */
  stillOpen(ids: readonly string[]): Promise<ReadonlySet<string>>;
  claim(id: string): Promise<{ earned: string }>;
  /** Refusals that mean "nothing left to claim" (removed, already done): dropped without a message. */
  silentStatuses: readonly number[];
  onEarned(earned: string, id: string): void;
  /** A refusal (dropped) or an outage (`willRetry`: kept for the next page load). */
  onFailed(error: unknown, willRetry: boolean, id: string): void;
  /** A claim left without being sent or without a message (removed, already done). */
  onDropped?(id: string): void;
  /**
   * A refusal that means "not yet: the member has something to do first" (a no-bot claim before the
   * invite was accepted): the claim stays, marked `waiting`, and is tried again quietly every
   * `notYetRetryMs`, `maxNotYetRetries` times; then it is dropped without a message (onDropped).
   */
  notYet?(error: unknown): boolean;
  notYetRetryMs?: number;
  maxNotYetRetries?: number;
}

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export interface DelayedClaimsOptions {
  now?: () => number;
  /** Defaults to window.localStorage; null when storage is unavailable. */
  storage?: () => StorageLike | null;
}

/** After a "too early" answer (425: the server's clock is the judge), try again this much later. */
export const TOO_EARLY_RETRY_MS = 2_000;
/** "Too early" answers accepted per claim in one page session; then it waits for the next page load. */
export const MAX_TOO_EARLY_RETRIES = 15;

/** What `pending` answers when nothing is pending: always this one array (useSyncExternalStore compares). */
export const NO_PENDING_CLAIMS: readonly PendingClaim[] = Object.freeze([]);
const EMPTY = NO_PENDING_CLAIMS;

function defaultStorage(): StorageLike | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export class DelayedClaims<K extends string> {
  private userId: string | null = null;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<string>();
  private readonly tooEarly = new Map<string, number>();
  private readonly notYetTries = new Map<string, number>();
  /** Claims that met an outage: they wait for the next page load (docs/spec/product-spec.md §8 "retry when you refresh"). */
  private readonly stalled = new Set<string>();
  /** This tab's view of the pending claims (the source of truth while it runs; storage persists it). */
  private readonly claims = new Map<K, readonly PendingClaim[]>();
  private readonly listeners = new Set<() => void>();
  private changed = false;
  private readonly now: () => number;
  private readonly storage: () => StorageLike | null;

  constructor(
    private readonly kinds: Record<K, ClaimKind>,
    options: DelayedClaimsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.storage = options.storage ?? defaultStorage;
  }

  /** Page load (or sign-in): schedules this user's stored claims; due ones run at once. */
  resume(userId: string): void {
    this.switchUser(userId);
    for (const kind of this.kindNames()) {
      // Stored entries (from an earlier page load or another tab) join the ones this tab already holds.
      const known = new Set(this.read(kind).map((c) => c.id));
      const stored = this.load(kind).filter((c) => !known.has(c.id));
      if (stored.length > 0) this.write(kind, [...this.read(kind), ...stored]);
      for (const claim of this.read(kind)) {
        const key = this.key(kind, claim.id);
        if (!this.timers.has(key) && !this.inFlight.has(key) && !this.stalled.has(key))
          this.schedule(kind, claim.id, claim.claimAt);
      }
    }
    this.publish();
  }

  /** Stores a claim due `delayMs` (default: the kind's delay) from now and schedules it. */
  add(userId: string, kind: K, id: string, delayMs = this.kinds[kind].delayMs): void {
    this.switchUser(userId);
    this.upsert(kind, { id, claimAt: this.now() + delayMs });
  }

  /** Moves a stored claim's due time (e.g. to the server's own `claimableAt`). */
  reschedule(kind: K, id: string, claimAt: number): void {
    if (!this.read(kind).some((c) => c.id === id)) return;
    this.upsert(kind, { id, claimAt });
  }

  /** Forgets a claim without sending it. */
  remove(kind: K, id: string): void {
    this.forget(kind, id);
    this.publish();
  }

  /** Drops every claim of `kind` whose id is not in `openIds` (a fresh list from the server). */
  retainOnly(kind: K, openIds: ReadonlySet<string>): void {
    const gone = this.read(kind).filter((c) => !openIds.has(c.id));
    for (const claim of gone) this.forget(kind, claim.id);
    if (gone.length > 0) this.publish();
  }

  /** Forgets timers (sign-out, another account). Stored entries stay for their owner's next visit. */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.tooEarly.clear();
    this.notYetTries.clear();
    this.stalled.clear();
    if (this.claims.size > 0) this.changed = true;
    this.claims.clear();
    this.userId = null;
    this.publish();
  }

  /** This user's pending claims of `kind` (a stable array between changes, for useSyncExternalStore). */
  pending(kind: K): readonly PendingClaim[] {
    return this.claims.get(kind) ?? EMPTY;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Milliseconds to wait before trying a claim due at `claimAt`: never negative, never above the delay. */
  waitFor(kind: K, claimAt: number): number {
    return Math.min(Math.max(0, claimAt - this.now()), this.kinds[kind].delayMs);
  }

  private kindNames(): K[] {
    return Object.keys(this.kinds) as K[];
  }

  private key(kind: K, id: string): string {
    return `${kind}:${id}`;
  }

  private switchUser(userId: string): void {
    if (this.userId !== userId) {
      this.stop();
      this.userId = userId;
    }
  }

  private upsert(kind: K, claim: PendingClaim): void {
    this.write(kind, [...this.read(kind).filter((c) => c.id !== claim.id), claim]);
    const key = this.key(kind, claim.id);
    this.tooEarly.delete(key);
    this.notYetTries.delete(key);
    this.stalled.delete(key);
    this.schedule(kind, claim.id, claim.claimAt);
    this.publish();
  }

  private forget(kind: K, id: string): void {
    const key = this.key(kind, id);
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
    this.tooEarly.delete(key);
    this.notYetTries.delete(key);
    this.stalled.delete(key);
    this.write(
      kind,
      this.read(kind).filter((c) => c.id !== id),
    );
  }

  private schedule(kind: K, id: string, claimAt: number): void {
    const key = this.key(kind, id);
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing);
    this.timers.set(
      key,
      setTimeout(
        () => {
          this.timers.delete(key);
          void this.run(kind, id);
        },
        this.waitFor(kind, claimAt),
      ),
    );
  }

  private async run(kind: K, id: string): Promise<void> {
    const userId = this.userId;
    const key = this.key(kind, id);
    if (!userId || this.inFlight.has(key)) return;
    const def = this.kinds[kind];
    this.inFlight.add(key);
    try {
      if (!(await def.stillOpen([id])).has(id)) {
        if (this.userId === userId) this.forget(kind, id);
        def.onDropped?.(id);
        return;
      }
      if (this.userId !== userId || !this.read(kind).some((c) => c.id === id)) return; // removed meanwhile
      const { earned } = await def.claim(id);
      if (this.userId === userId) this.forget(kind, id);
      def.onEarned(earned, id);
    } catch (err) {
      if (this.userId !== userId) return;
      const status = errorStatus(err);
      if (status === 425) {
        const tries = (this.tooEarly.get(key) ?? 0) + 1;
        this.tooEarly.set(key, tries);
        if (tries <= MAX_TOO_EARLY_RETRIES) this.schedule(kind, id, this.now() + TOO_EARLY_RETRY_MS);
        else this.stalled.add(key);
        return;
      }
      if (def.notYet?.(err)) {
        const tries = (this.notYetTries.get(key) ?? 0) + 1;
        if (tries > (def.maxNotYetRetries ?? 0)) {
          this.forget(kind, id);
          def.onDropped?.(id);
          return;
        }
        this.notYetTries.set(key, tries);
        this.markWaiting(kind, id);
        this.schedule(kind, id, this.now() + (def.notYetRetryMs ?? TOO_EARLY_RETRY_MS));
        return;
      }
      if (status !== null && def.silentStatuses.includes(status)) {
        this.forget(kind, id);
        def.onDropped?.(id);
        return;
      }
      const definitive = status !== null && status >= 400 && status < 500 && status !== 401 && status !== 429;
      if (definitive) this.forget(kind, id);
      else this.stalled.add(key);
      def.onFailed(err, !definitive, id);
    } finally {
      this.inFlight.delete(key);
      this.publish();
    }
  }

  /** Marks a claim as waiting on the member (kept in this tab's view; storage keeps id and due time). */
  private markWaiting(kind: K, id: string): void {
    const claims = this.read(kind);
    if (!claims.some((c) => c.id === id && !c.waiting)) return;
    this.write(
      kind,
      claims.map((c) => (c.id === id ? { ...c, waiting: true } : c)),
    );
  }

  private storageKey(kind: K): string | null {
    return this.userId ? `${this.kinds[kind].storagePrefix}${this.userId}` : null;
  }

  private read(kind: K): readonly PendingClaim[] {
    return this.claims.get(kind) ?? EMPTY;
  }

  /** Stored claims; anything unreadable (private mode, a hand-edited value) counts as none. */
  private load(kind: K): PendingClaim[] {
    const key = this.storageKey(kind);
    if (!key) return [];
    const { idField } = this.kinds[kind];
    try {
      const parsed: unknown = JSON.parse(this.storage()?.getItem(key) ?? '[]');
      if (!Array.isArray(parsed)) return [];
      return parsed.flatMap((entry: unknown) => {
        if (!entry || typeof entry !== 'object') return [];
        const id = (entry as Record<string, unknown>)[idField];
        const claimAt = (entry as Record<string, unknown>).claimAt;
        return typeof id === 'string' && id !== '' && typeof claimAt === 'number' && Number.isFinite(claimAt)
          ? [{ id, claimAt }]
          : [];
      });
    } catch {
      return [];
    }
  }

  private write(kind: K, claims: readonly PendingClaim[]): void {
    this.claims.set(kind, claims.length === 0 ? EMPTY : claims);
    this.changed = true;
    const key = this.storageKey(kind);
    if (!key) return;
    const { idField } = this.kinds[kind];
    try {
      const storage = this.storage();
      if (claims.length === 0) storage?.removeItem(key);
      else
        storage?.setItem(key, JSON.stringify(claims.map((c) => ({ [idField]: c.id, claimAt: c.claimAt }))));
    } catch {
      // Storage full or disabled: the claim still runs in this tab, it just won't survive a reload.
    }
  }

  private publish(): void {
    if (!this.changed) return;
    this.changed = false;
    for (const listener of this.listeners) listener();
  }
}

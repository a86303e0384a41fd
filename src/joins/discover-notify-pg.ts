import pg from 'pg';
import type { Logger } from '../logger.ts';
import { errorMessage } from '../ops/error-text.ts';

// Discover's list across processes on PostgreSQL (decision 028, "Caches and live events across
// processes"): the change feed src/joins/discover-list.pg.ts keeps its list current with, where the SQLite
// list uses TEMP triggers and PRAGMA data_version.
//
// - The trigger `servers_discover_notify` (migration drizzle-pg/0002_discover_notify.sql) calls
//   pg_notify('discover_changed', id) for every campaign row inserted, updated or deleted, as the
//   SQLite TEMP triggers record ids. PostgreSQL delivers notifications at commit (none for a
//   rolled-back transaction) to every session listening, in every process, and folds repeats of one id
//   within a transaction. It catches every writer: no service can forget to publish. The joins table
//   needs no trigger: an entry's "isMine" and the member's joins are read per request.
// - startDiscoverListener keeps one dedicated connection LISTENing and hands the changed ids to the
//   list (batched per event-loop turn). When the connection drops it may have missed notifications:
//   it reconnects with a growing wait and then asks the list to rebuild everything (onReset), like the
//   SQLite path on a data_version change. Correctness never depends on it: a claim re-checks slots in
//   the database.

export const DISCOVER_CHANNEL = 'discover_changed';

export interface DiscoverListenerOptions {
  /** The database URL: the listener holds its own connection (a pooled one would be handed back). */
  connectionString: string;
  /** Campaign ids written since the last call (each once), after their transactions committed. */
  onChanged: (ids: string[]) => void;
  /** The connection was lost and is back: notifications may have been missed, rebuild everything. */
  onReset: () => void;
  logger?: Logger;
  /** First wait before reconnecting (doubles up to maxRetryMs). */
  retryMs?: number;
  maxRetryMs?: number;
}

export interface DiscoverListener {
  /** Resolves once the first LISTEN is in place. */
  ready: Promise<void>;
  /** Whether a connection is listening now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export function startDiscoverListener(options: DiscoverListenerOptions): DiscoverListener {
  const listener = new ReconnectingListener(options);
  void listener.connect();
  return listener;
}

/** One LISTEN connection at a time, reconnected with a doubling wait; notifications batched per tick. */
class ReconnectingListener implements DiscoverListener {
  readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;
  private retryMs: number;
  private client: pg.Client | null = null;
  private isListening = false;
  private closed = false;
  private everConnected = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private pending = new Set<string>();
  private flushQueued = false;

  constructor(private readonly options: DiscoverListenerOptions) {
    this.firstRetryMs = options.retryMs ?? 500;
    this.maxRetryMs = options.maxRetryMs ?? 30_000;
    this.retryMs = this.firstRetryMs;
    this.ready = new Promise<void>((resolve) => (this.markReady = resolve));
  }

  get listening(): boolean {
    return this.isListening;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const current = this.client;
    this.client = null;
    this.isListening = false;
    await current?.end().catch(() => undefined);
  }

  async connect(): Promise<void> {
    if (this.closed) return;
    const next = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'coinsync-discover-listener',
    });
    this.client = next;
    next.on('error', (err) => this.lost(next, err.message));
    next.on('end', () => this.lost(next, 'connection ended'));
    next.on('notification', (message) => {
      if (message.channel !== DISCOVER_CHANNEL || !message.payload) return;
      this.pending.add(message.payload);
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(() => this.flush());
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${DISCOVER_CHANNEL}`);
    } catch (err) {
      this.options.logger?.warn('discover listener: could not listen; retrying', {
        error: errorMessage(err),
      });
      this.lost(next, 'connect failed');
      return;
    }
    if (this.closed || this.client !== next) {
      await next.end().catch(() => undefined);
      return;
    }
    this.isListening = true;
    this.retryMs = this.firstRetryMs;
    if (this.everConnected) this.reset();
    this.everConnected = true;
    this.markReady();
  }

  /** Whatever was written while no connection listened is unknown: rebuild. */
  private reset(): void {
    this.pending = new Set();
    try {
      this.options.onReset();
    } catch (err) {
      this.options.logger?.error('discover listener: onReset failed', { error: err });
    }
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.pending.size === 0) return;
    const ids = [...this.pending];
    this.pending = new Set();
    try {
      this.options.onChanged(ids);
    } catch (err) {
      this.options.logger?.error('discover listener: onChanged failed', { error: err });
    }
  }

  private lost(next: pg.Client, reason: string): void {
    if (this.client !== next) return;
    this.client = null;
    if (this.isListening)
      this.options.logger?.warn('discover listener: connection lost; reconnecting', { reason });
    this.isListening = false;
    void next.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
  }
}

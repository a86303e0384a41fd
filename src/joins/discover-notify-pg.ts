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
  const firstRetryMs = options.retryMs ?? 500;
  const maxRetryMs = options.maxRetryMs ?? 30_000;
  let retryMs = firstRetryMs;
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let everConnected = false;
  let retryTimer: NodeJS.Timeout | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  let pending = new Set<string>();
  let flushQueued = false;
  const flush = (): void => {
    flushQueued = false;
    if (pending.size === 0) return;
    const ids = [...pending];
    pending = new Set();
    try {
      options.onChanged(ids);
    } catch (err) {
      options.logger?.error('discover listener: onChanged failed', { error: err });
    }
  };

  const scheduleReconnect = (): void => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  };

  const lost = (next: pg.Client, reason: string): void => {
    if (client !== next) return;
    client = null;
    if (listening) options.logger?.warn('discover listener: connection lost; reconnecting', { reason });
    listening = false;
    void next.end().catch(() => undefined);
    scheduleReconnect();
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    const next = new pg.Client({
      connectionString: options.connectionString,
      application_name: 'coinsync-discover-listener',
    });
    client = next;
    next.on('error', (err) => lost(next, err.message));
    next.on('end', () => lost(next, 'connection ended'));
    next.on('notification', (message) => {
      if (message.channel !== DISCOVER_CHANNEL || !message.payload) return;
      pending.add(message.payload);
      if (!flushQueued) {
        flushQueued = true;
        setImmediate(flush);
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${DISCOVER_CHANNEL}`);
    } catch (err) {
      options.logger?.warn('discover listener: could not listen; retrying', {
        error: errorMessage(err),
      });
      lost(next, 'connect failed');
      return;
    }
    if (closed || client !== next) {
      await next.end().catch(() => undefined);
      return;
    }
    listening = true;
    retryMs = firstRetryMs;
    if (everConnected) {
      // Whatever was written while no connection listened is unknown: rebuild.
      pending = new Set();
      try {
        options.onReset();
      } catch (err) {
        options.logger?.error('discover listener: onReset failed', { error: err });
      }
    }
    everConnected = true;
    markReady();
  };
  void connect();

  return {
    ready,
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      listening = false;
      await current?.end().catch(() => undefined);
    },
  };
}

import session from 'express-session';
import type { Database } from 'better-sqlite3';

const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const CACHE_LIMIT = 20_000;

/**
 * express-session store over the project's own SQLite database, used when REDIS_URL is not set,
 * so a demo keeps its sessions across restarts. Every signed-in request reads its session, so reads
 * are served from an in-process copy of what this process last wrote or read (one process owns the
 * database: see decision 005); writes go to SQLite first, then to the copy.
 */
export class SqliteSessionStore extends session.Store {
  private readonly getStmt;
  private readonly setStmt;
  private readonly destroyStmt;
  private readonly touchStmt;
  private readonly pruneStmt;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly cache = new Map<string, { sess: string; expiresAt: number }>();

  constructor(
    sqlite: Database,
    private readonly now: () => number = Date.now,
    pruneEveryMs = 15 * 60 * 1000,
  ) {
    super();
    this.getStmt = sqlite.prepare<[string, number], { sess: string; expiresAt: number }>(
      'SELECT sess, expires_at AS expiresAt FROM sessions WHERE sid = ? AND expires_at > ?',
    );
    this.setStmt = sqlite.prepare<[string, string, number]>(
      'INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?) ON CONFLICT(sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at',
    );
    this.destroyStmt = sqlite.prepare<[string]>('DELETE FROM sessions WHERE sid = ?');
    this.touchStmt = sqlite.prepare<[number, string]>('UPDATE sessions SET expires_at = ? WHERE sid = ?');
    this.pruneStmt = sqlite.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?');
    // 0: the owner runs prune() (session.ts does, through startSafeInterval, so an error is logged, not fatal).
    if (pruneEveryMs > 0) {
      this.timer = setInterval(() => {
        try {
          this.prune();
        } catch {
          // A failed prune (e.g. disk full) is retried next time; it must never end the process.
        }
      }, pruneEveryMs);
      this.timer.unref();
    }
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : this.now() + DEFAULT_TTL_MS;
  }

  private remember(sid: string, sess: string, expiresAt: number): void {
    if (this.cache.size >= CACHE_LIMIT && !this.cache.has(sid)) this.cache.clear();
    this.cache.set(sid, { sess, expiresAt });
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const now = this.now();
      const cached = this.cache.get(sid);
      if (cached && cached.expiresAt > now) {
        cb(null, JSON.parse(cached.sess) as session.SessionData);
        return;
      }
      this.cache.delete(sid);
      const row = this.getStmt.get(sid, now);
      if (!row) return cb(null, null);
      this.remember(sid, row.sess, row.expiresAt);
      cb(null, JSON.parse(row.sess) as session.SessionData);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      const json = JSON.stringify(sess);
      const expiresAt = this.expiry(sess);
      this.setStmt.run(sid, json, expiresAt);
      this.remember(sid, json, expiresAt);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    try {
      this.cache.delete(sid);
      this.destroyStmt.run(sid);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      const expiresAt = this.expiry(sess);
      this.touchStmt.run(expiresAt, sid);
      const cached = this.cache.get(sid);
      if (cached) cached.expiresAt = expiresAt;
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  prune(): void {
    const now = this.now();
    for (const [sid, entry] of this.cache) if (entry.expiresAt <= now) this.cache.delete(sid);
    this.pruneStmt.run(now);
  }

  close(): void {
    clearInterval(this.timer);
  }
}

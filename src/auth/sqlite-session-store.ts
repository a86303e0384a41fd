import session from 'express-session';
import type { Database } from 'better-sqlite3';

const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * express-session store over the project's own SQLite database, used when REDIS_URL is not set,
 * so a demo keeps its sessions across restarts. Prepared statements keep the per-request cost low.
 */
export class SqliteSessionStore extends session.Store {
  private readonly getStmt;
  private readonly setStmt;
  private readonly destroyStmt;
  private readonly touchStmt;
  private readonly pruneStmt;
  private readonly timer: NodeJS.Timeout;

  constructor(
    sqlite: Database,
    private readonly now: () => number = Date.now,
    pruneEveryMs = 15 * 60 * 1000,
  ) {
    super();
    this.getStmt = sqlite.prepare<[string, number], { sess: string }>(
      'SELECT sess FROM sessions WHERE sid = ? AND expires_at > ?',
    );
    this.setStmt = sqlite.prepare<[string, string, number]>(
      'INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?) ON CONFLICT(sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at',
    );
    this.destroyStmt = sqlite.prepare<[string]>('DELETE FROM sessions WHERE sid = ?');
    this.touchStmt = sqlite.prepare<[number, string]>('UPDATE sessions SET expires_at = ? WHERE sid = ?');
    this.pruneStmt = sqlite.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?');
    this.timer = setInterval(() => this.prune(), pruneEveryMs);
    this.timer.unref();
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : this.now() + DEFAULT_TTL_MS;
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const row = this.getStmt.get(sid, this.now());
      cb(null, row ? (JSON.parse(row.sess) as session.SessionData) : null);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      this.setStmt.run(sid, JSON.stringify(sess), this.expiry(sess));
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    try {
      this.destroyStmt.run(sid);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      this.touchStmt.run(this.expiry(sess), sid);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  prune(): void {
    this.pruneStmt.run(this.now());
  }

  close(): void {
    clearInterval(this.timer);
  }
}

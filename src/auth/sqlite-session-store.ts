import session from 'express-session';
import type { Database } from 'better-sqlite3';
import { mayCreateSession } from './session-creation.ts';

const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * express-session store over the project's own SQLite database, used when REDIS_URL is not set,
 * so a demo keeps its sessions across restarts. Every request reads its row (a primary-key lookup):
 * there is deliberately no in-process copy, so deleting a row (sign out everywhere, an operator
 * during an incident) ends that session on its very next request.
 */
export class SqliteSessionStore extends session.Store {
  private readonly getStmt;
  private readonly setStmt;
  private readonly updateStmt;
  private readonly destroyStmt;
  private readonly touchStmt;
  private readonly pruneStmt;

  /** Expired rows go when the owner calls prune() (session.ts, through startSafeInterval). */
  constructor(
    sqlite: Database,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.getStmt = sqlite.prepare<[string, number], { sess: string; expiresAt: number }>(
      'SELECT sess, expires_at AS expiresAt FROM sessions WHERE sid = ? AND expires_at > ?',
    );
    this.setStmt = sqlite.prepare<[string, string, number]>(
      'INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?) ON CONFLICT(sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at',
    );
    this.updateStmt = sqlite.prepare<[string, number, string]>(
      'UPDATE sessions SET sess = ?, expires_at = ? WHERE sid = ?',
    );
    this.destroyStmt = sqlite.prepare<[string]>('DELETE FROM sessions WHERE sid = ?');
    this.touchStmt = sqlite.prepare<[number, string]>('UPDATE sessions SET expires_at = ? WHERE sid = ?');
    this.pruneStmt = sqlite.prepare<[number]>('DELETE FROM sessions WHERE expires_at <= ?');
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : this.now() + DEFAULT_TTL_MS;
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const row = this.getStmt.get(sid, this.now());
      if (!row) return cb(null, null);
      cb(null, JSON.parse(row.sess) as session.SessionData);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      const json = JSON.stringify(sess);
      const expiresAt = this.expiry(sess);
      // Only a sign-in creates a signed-in session; any other save updates the row if it still exists.
      if (mayCreateSession(sess)) this.setStmt.run(sid, json, expiresAt);
      else this.updateStmt.run(json, expiresAt, sid);
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
      const expiresAt = this.expiry(sess);
      this.touchStmt.run(expiresAt, sid);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  prune(): void {
    this.pruneStmt.run(this.now());
  }

  /** Nothing to release: the statements belong to the connection. */
  close(): void {}
}

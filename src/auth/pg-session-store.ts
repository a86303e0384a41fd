import session from 'express-session';
import type pg from 'pg';
import { mayCreateSession } from './session-creation.ts';

const DEFAULT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * express-session store over the schema's `sessions` table on PostgreSQL: what ROLE=all uses on
 * PostgreSQL without REDIS_URL (decision 028, step 4), the counterpart of SqliteSessionStore. Every
 * request reads its row by primary key, with no in-process copy, so deleting a row (sign out
 * everywhere) ends that session on its next request — in every process sharing the database.
 * Each operation is one statement on the pool (autocommit), never inside a store transaction.
 */
export class PgSessionStore extends session.Store {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  private expiry(sess: session.SessionData): number {
    const expires = sess.cookie?.expires;
    return expires ? new Date(expires).getTime() : this.now() + DEFAULT_TTL_MS;
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    this.pool
      .query<{ sess: string }>({
        name: 'session_get',
        text: 'SELECT sess FROM sessions WHERE sid = $1 AND expires_at > $2',
        values: [sid, this.now()],
      })
      .then(
        (res) => {
          const row = res.rows[0];
          cb(null, row ? (JSON.parse(row.sess) as session.SessionData) : null);
        },
        (err: unknown) => cb(err),
      );
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    // Only a sign-in creates a signed-in session; any other save updates the row if it still exists.
    if (!mayCreateSession(sess)) {
      this.run(
        'session_update',
        'UPDATE sessions SET sess = $1, expires_at = $2 WHERE sid = $3',
        [JSON.stringify(sess), this.expiry(sess), sid],
        cb,
      );
      return;
    }
    this.run(
      'session_set',
      'INSERT INTO sessions (sid, sess, expires_at) VALUES ($1, $2, $3) ' +
        'ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at',
      [sid, JSON.stringify(sess), this.expiry(sess)],
      cb,
    );
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.run('session_destroy', 'DELETE FROM sessions WHERE sid = $1', [sid], cb);
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    this.run(
      'session_touch',
      'UPDATE sessions SET expires_at = $1 WHERE sid = $2',
      [this.expiry(sess), sid],
      cb,
    );
  }

  /** Deletes expired sessions; how many. */
  async prune(): Promise<number> {
    const res = await this.pool.query('DELETE FROM sessions WHERE expires_at <= $1', [this.now()]);
    return res.rowCount ?? 0;
  }

  private run(name: string, text: string, values: unknown[], cb?: (err?: unknown) => void): void {
    this.pool.query({ name, text, values }).then(
      () => cb?.(),
      (err: unknown) => cb?.(err),
    );
  }
}

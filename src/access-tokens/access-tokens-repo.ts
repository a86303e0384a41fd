import { and, count, desc, eq, gt, isNull, lt, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { changes, getForUpdate, prepared } from '../db/query.ts';
import { accessTokens, users } from '../db/schema.ts';

// The access_tokens table (decision 053): one query definition for both engines (decision 044), held
// to its contract by access-tokens-repo.test.ts on SQLite and PostgreSQL.

export type AccessTokenRow = typeof accessTokens.$inferSelect;
export type NewAccessTokenRow = typeof accessTokens.$inferInsert & { id: string };

const t = accessTokens;

/** A token that still works at `now`: not revoked, not expired. */
function usable(now: number | SQLWrapper) {
  return and(isNull(t.revokedAt), or(isNull(t.expiresAt), gt(t.expiresAt, now)));
}

// Every request with a token looks its hash up: compiled once (see `prepared`).
const FIND_USABLE_BY_HASH = prepared((q) =>
  q
    .select()
    .from(t)
    .where(and(eq(t.tokenHash, sql.placeholder('tokenHash')), usable(sql.placeholder('now'))))
    .prepare(),
);

export class AccessTokensRepository {
  constructor(private readonly h: DbHandle) {}

  /**
   * Locks the user's row until the transaction ends (PostgreSQL; SQLite's writers are serialised
   * already): concurrent creations of one user's tokens count one after the other.
   */
  async lockOwner(userId: string): Promise<void> {
    await getForUpdate(this.h, this.h.q.select({ id: users.id }).from(users).where(eq(users.id, userId)));
  }

  async insert(row: NewAccessTokenRow): Promise<void> {
    await this.h.q.insert(t).values(row).run();
  }

  /** The user's usable tokens, newest first. */
  listUsable(userId: string, now: number): Promise<AccessTokenRow[]> {
    return this.h.q
      .select()
      .from(t)
      .where(and(eq(t.userId, userId), usable(now)))
      .orderBy(desc(t.createdAt))
      .all();
  }

  async countUsable(userId: string, now: number): Promise<number> {
    const row = await this.h.q
      .select({ n: count() })
      .from(t)
      .where(and(eq(t.userId, userId), usable(now)))
      .get();
    return Number(row?.n ?? 0);
  }

  /** The usable token with this hash, if any. */
  findUsableByHash(tokenHash: string, now: number): Promise<AccessTokenRow | undefined> {
    return FIND_USABLE_BY_HASH(this.h).get({ tokenHash, now });
  }

  /** Revokes the user's token (another user's id behaves like a missing one): whether one was revoked. */
  async revoke(userId: string, id: string, now: number): Promise<boolean> {
    const row = await this.h.q
      .update(t)
      .set({ revokedAt: now })
      .where(and(eq(t.id, id), eq(t.userId, userId), isNull(t.revokedAt)))
      .returning({ id: t.id })
      .get();
    return row !== undefined;
  }

  /** Records a use, at most once per `everyMs` per token (one conditional write): whether it wrote. */
  async touch(id: string, now: number, everyMs: number): Promise<boolean> {
    const result = await this.h.q
      .update(t)
      .set({ lastUsedAt: now })
      .where(and(eq(t.id, id), or(isNull(t.lastUsedAt), lt(t.lastUsedAt, now - everyMs))))
      .run();
    return changes(result) > 0;
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.h.q.delete(t).where(eq(t.userId, userId)).run();
  }
}

export function accessTokensRepo(h: DbHandle): AccessTokensRepository {
  return new AccessTokensRepository(h);
}

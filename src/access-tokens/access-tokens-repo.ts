import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { accessTokens } from '../db/schema.ts';
import { accessTokens as pgAccessTokens } from '../db/schema.pg.ts';

// The access_tokens table on either engine (decision 053). Kept to this one small module until the
// data layer written once lands (issue 30): each query is written once against the columns both
// schemas share, and only the executor differs.

export type AccessTokenRow = typeof accessTokens.$inferSelect;
export type NewAccessTokenRow = typeof accessTokens.$inferInsert;

/** A token that still works at `now`: not revoked, not expired. */
function usable(t: typeof accessTokens | typeof pgAccessTokens, now: number) {
  return and(isNull(t.revokedAt), or(isNull(t.expiresAt), gt(t.expiresAt, now)));
}

export interface AccessTokensRepository {
  insert(row: NewAccessTokenRow & { id: string }): Promise<void>;
  /** The user's usable tokens, newest first. */
  listUsable(userId: string, now: number): Promise<AccessTokenRow[]>;
  countUsable(userId: string, now: number): Promise<number>;
  /** The usable token with this hash, if any. */
  findUsableByHash(tokenHash: string, now: number): Promise<AccessTokenRow | undefined>;
  /** Revokes the user's token (another user's id behaves like a missing one): whether one was revoked. */
  revoke(userId: string, id: string, now: number): Promise<boolean>;
  /** Records a use, at most once per `everyMs` per token (one conditional write). */
  touch(id: string, now: number, everyMs: number): Promise<void>;
  deleteForUser(userId: string): Promise<void>;
}

export function accessTokensRepo(h: DbHandle): AccessTokensRepository {
  return h.kind === 'sqlite' ? sqliteRepo(h.db) : pgRepo(h.db);
}

/* eslint-disable @typescript-eslint/require-await -- better-sqlite3 is synchronous: async without awaiting, on
   purpose, as in the *.sqlite.ts repositories (a throw still becomes a rejection). */
function sqliteRepo(db: Extract<DbHandle, { kind: 'sqlite' }>['db']): AccessTokensRepository {
  const t = accessTokens;
  return {
    async insert(row) {
      db.insert(t).values(row).run();
    },
    async listUsable(userId, now) {
      return db
        .select()
        .from(t)
        .where(and(eq(t.userId, userId), usable(t, now)))
        .orderBy(desc(t.createdAt))
        .all();
    },
    async countUsable(userId, now) {
      const row = db
        .select({ n: sql<number>`count(*)` })
        .from(t)
        .where(and(eq(t.userId, userId), usable(t, now)))
        .get();
      return Number(row?.n ?? 0);
    },
    async findUsableByHash(tokenHash, now) {
      return db
        .select()
        .from(t)
        .where(and(eq(t.tokenHash, tokenHash), usable(t, now)))
        .get();
    },
    async revoke(userId, id, now) {
      const row = db
        .update(t)
        .set({ revokedAt: now })
        .where(and(eq(t.id, id), eq(t.userId, userId), isNull(t.revokedAt)))
        .returning({ id: t.id })
        .get();
      return row !== undefined;
    },
    async touch(id, now, everyMs) {
      db.update(t)
        .set({ lastUsedAt: now })
        .where(and(eq(t.id, id), or(isNull(t.lastUsedAt), lt(t.lastUsedAt, now - everyMs))))
        .run();
    },
    async deleteForUser(userId) {
      db.delete(t).where(eq(t.userId, userId)).run();
    },
  };
}

/* eslint-enable @typescript-eslint/require-await */

function pgRepo(db: Extract<DbHandle, { kind: 'pg' }>['db']): AccessTokensRepository {
  const t = pgAccessTokens;
  return {
    async insert(row) {
      await db.insert(t).values(row);
    },
    async listUsable(userId, now) {
      return db
        .select()
        .from(t)
        .where(and(eq(t.userId, userId), usable(t, now)))
        .orderBy(desc(t.createdAt));
    },
    async countUsable(userId, now) {
      const [row] = await db
        .select({ n: sql<number>`count(*)` })
        .from(t)
        .where(and(eq(t.userId, userId), usable(t, now)));
      return Number(row?.n ?? 0);
    },
    async findUsableByHash(tokenHash, now) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.tokenHash, tokenHash), usable(t, now)));
      return row;
    },
    async revoke(userId, id, now) {
      const rows = await db
        .update(t)
        .set({ revokedAt: now })
        .where(and(eq(t.id, id), eq(t.userId, userId), isNull(t.revokedAt)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
    async touch(id, now, everyMs) {
      await db
        .update(t)
        .set({ lastUsedAt: now })
        .where(and(eq(t.id, id), or(isNull(t.lastUsedAt), lt(t.lastUsedAt, now - everyMs))));
    },
    async deleteForUser(userId) {
      await db.delete(t).where(eq(t.userId, userId));
    },
  };
}

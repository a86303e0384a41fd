import type { DbHandle } from '../db/engine.ts';
import { and, eq } from 'drizzle-orm';
import { oauthTokens } from '../db/schema.ts';

// Members' encrypted Discord OAuth tokens (src/auth/oauth-tokens.ts), on either engine (decision 044).

export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
export type OAuthTokenValues = Omit<OAuthTokenRow, 'userId'>;

export class OAuthTokensRepository {
  constructor(private readonly h: DbHandle) {}

  async find(userId: string): Promise<OAuthTokenRow | undefined> {
    return this.h.q.select().from(oauthTokens).where(eq(oauthTokens.userId, userId)).get();
  }

  /** Inserts or replaces the user's tokens. */
  async save(userId: string, values: OAuthTokenValues): Promise<void> {
    await this.h.q
      .insert(oauthTokens)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: oauthTokens.userId, set: values })
      .run();
  }

  async delete(userId: string): Promise<void> {
    await this.h.q.delete(oauthTokens).where(eq(oauthTokens.userId, userId)).run();
  }

  /**
   * Claims the refresh of the user's tokens across processes: sets `updatedAt` to `leaseUntil` (a time in
   * the future means "a refresh is in progress until then") only if it still equals `seenUpdatedAt`.
   * True for exactly one of several concurrent claimers of the same row.
   */
  async claimRefresh(userId: string, seenUpdatedAt: number, leaseUntil: number): Promise<boolean> {
    const row = await this.h.q
      .update(oauthTokens)
      .set({ updatedAt: leaseUntil })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, seenUpdatedAt)))
      .returning({ userId: oauthTokens.userId })
      .get();
    return row !== undefined;
  }

  /** Gives a claimed refresh up (the refresh failed for a passing reason): `updatedAt` back to `now`. */
  async releaseRefresh(userId: string, leaseUntil: number, now: number): Promise<void> {
    await this.h.q
      .update(oauthTokens)
      .set({ updatedAt: now })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, leaseUntil)))
      .run();
  }
}

export function oauthTokensRepo(h: DbHandle): OAuthTokensRepository {
  return new OAuthTokensRepository(h);
}

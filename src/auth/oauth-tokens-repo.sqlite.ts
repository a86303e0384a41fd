import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oauthTokens } from '../db/schema.ts';
import type { OAuthTokenRow, OAuthTokensRepository, OAuthTokenValues } from './oauth-tokens-repo.ts';

export class SqliteOAuthTokensRepository implements OAuthTokensRepository {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<OAuthTokenRow | undefined> {
    return this.db.select().from(oauthTokens).where(eq(oauthTokens.userId, userId)).get();
  }

  async save(userId: string, values: OAuthTokenValues): Promise<void> {
    this.db
      .insert(oauthTokens)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: oauthTokens.userId, set: values })
      .run();
  }

  async delete(userId: string): Promise<void> {
    this.db.delete(oauthTokens).where(eq(oauthTokens.userId, userId)).run();
  }

  async claimRefresh(userId: string, seenUpdatedAt: number, leaseUntil: number): Promise<boolean> {
    const row = this.db
      .update(oauthTokens)
      .set({ updatedAt: leaseUntil })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, seenUpdatedAt)))
      .returning({ userId: oauthTokens.userId })
      .get();
    return row !== undefined;
  }

  async releaseRefresh(userId: string, leaseUntil: number, now: number): Promise<void> {
    this.db
      .update(oauthTokens)
      .set({ updatedAt: now })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, leaseUntil)))
      .run();
  }
}

import { and, eq } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { oauthTokens } from '../db/schema.pg.ts';
import type { OAuthTokenRow, OAuthTokensRepository, OAuthTokenValues } from './oauth-tokens-repo.ts';

export class PgOAuthTokensRepository implements OAuthTokensRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async find(userId: string): Promise<OAuthTokenRow | undefined> {
    const [row] = await this.db.select().from(oauthTokens).where(eq(oauthTokens.userId, userId));
    return row;
  }

  async save(userId: string, values: OAuthTokenValues): Promise<void> {
    await this.db
      .insert(oauthTokens)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: oauthTokens.userId, set: values });
  }

  async delete(userId: string): Promise<void> {
    await this.db.delete(oauthTokens).where(eq(oauthTokens.userId, userId));
  }

  async claimRefresh(userId: string, seenUpdatedAt: number, leaseUntil: number): Promise<boolean> {
    // The row lock makes a second claimer wait, then re-check the WHERE against the committed row: no match.
    const rows = await this.db
      .update(oauthTokens)
      .set({ updatedAt: leaseUntil })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, seenUpdatedAt)))
      .returning({ userId: oauthTokens.userId });
    return rows.length > 0;
  }

  async releaseRefresh(userId: string, leaseUntil: number, now: number): Promise<void> {
    await this.db
      .update(oauthTokens)
      .set({ updatedAt: now })
      .where(and(eq(oauthTokens.userId, userId), eq(oauthTokens.updatedAt, leaseUntil)));
  }
}

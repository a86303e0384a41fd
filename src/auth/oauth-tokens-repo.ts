import type { DbHandle } from '../db/engine.ts';
import type { oauthTokens } from '../db/schema.ts';
import { SqliteOAuthTokensRepository } from './oauth-tokens-repo.sqlite.ts';
import { PgOAuthTokensRepository } from './oauth-tokens-repo.pg.ts';

// Members' encrypted Discord OAuth tokens (src/auth/oauth-tokens.ts), on either engine (decision 034).

export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
export type OAuthTokenValues = Omit<OAuthTokenRow, 'userId'>;

export interface OAuthTokensRepository {
  find(userId: string): Promise<OAuthTokenRow | undefined>;
  /** Inserts or replaces the user's tokens. */
  save(userId: string, values: OAuthTokenValues): Promise<void>;
  delete(userId: string): Promise<void>;
  /**
   * Claims the refresh of the user's tokens across processes: sets `updatedAt` to `leaseUntil` (a time in
   * the future means "a refresh is in progress until then") only if it still equals `seenUpdatedAt`.
   * True for exactly one of several concurrent claimers of the same row.
   */
  claimRefresh(userId: string, seenUpdatedAt: number, leaseUntil: number): Promise<boolean>;
  /** Gives a claimed refresh up (the refresh failed for a passing reason): `updatedAt` back to `now`. */
  releaseRefresh(userId: string, leaseUntil: number, now: number): Promise<void>;
}

export function oauthTokensRepo(h: DbHandle): OAuthTokensRepository {
  return h.kind === 'sqlite' ? new SqliteOAuthTokensRepository(h.db) : new PgOAuthTokensRepository(h.db);
}

import { createHash, randomBytes } from 'node:crypto';
import type { DataStore } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import {
  ACCESS_TOKEN_MESSAGES,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_SCOPES,
  MAX_ACCESS_TOKENS_PER_USER,
  type AccessTokenScope,
  type ApiAccessToken,
  type CreatedAccessToken,
} from '../shared/access-tokens.ts';
import { accessTokensRepo, type AccessTokenRow } from './access-tokens-repo.ts';

// Personal access tokens (decision 053): created and revoked by a signed-in session only, stored as a
// SHA-256 of a 256-bit random secret (no salt or slow hash needed: the secret is not guessable, unlike
// a password), shown once.

const DAY_MS = 24 * 60 * 60 * 1000;
/** `last_used_at` is written at most this often per token (one write a minute, not one per request). */
const LAST_USED_EVERY_MS = 60_000;
/** cs_pat_ + 43 base64url characters (32 random bytes). */
const TOKEN_SHAPE = /^cs_pat_[A-Za-z0-9_-]{43}$/;

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function scopesOf(row: AccessTokenRow): AccessTokenScope[] {
  const granted = new Set(row.scopes.split(' '));
  return ACCESS_TOKEN_SCOPES.filter((s) => granted.has(s));
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function toApiAccessToken(row: AccessTokenRow): ApiAccessToken {
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    scopes: scopesOf(row),
    createdAt: new Date(row.createdAt).toISOString(),
    expiresAt: iso(row.expiresAt),
    lastUsedAt: iso(row.lastUsedAt),
  };
}

export interface NewAccessToken {
  name: string;
  scopes: AccessTokenScope[];
  /** Null: never expires. */
  expiresInDays: number | null;
}

export async function createAccessToken(
  store: DataStore,
  userId: string,
  input: NewAccessToken,
  now: number,
): Promise<CreatedAccessToken> {
  const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = {
    id: crypto.randomUUID(),
    userId,
    name: input.name,
    tokenHash: hashAccessToken(token),
    hint: token.slice(-4),
    scopes: ACCESS_TOKEN_SCOPES.filter((s) => input.scopes.includes(s)).join(' '),
    createdAt: now,
    expiresAt: input.expiresInDays === null ? null : now + input.expiresInDays * DAY_MS,
    lastUsedAt: null,
    revokedAt: null,
  };
  await store.transaction(async (tx) => {
    const repo = accessTokensRepo(tx);
    await repo.lockOwner(userId);
    if ((await repo.countUsable(userId, now)) >= MAX_ACCESS_TOKENS_PER_USER) {
      throw new AppError('conflict', ACCESS_TOKEN_MESSAGES.tooMany);
    }
    await repo.insert(row);
  });
  return { ...toApiAccessToken(row), token };
}

export async function listAccessTokens(
  store: DataStore,
  userId: string,
  now: number,
): Promise<ApiAccessToken[]> {
  const rows = await accessTokensRepo(store.read).listUsable(userId, now);
  return rows.map(toApiAccessToken);
}

/** Revokes at once: the next request with the token is refused (every request looks the hash up). */
export async function revokeAccessToken(
  store: DataStore,
  userId: string,
  id: string,
  now: number,
): Promise<void> {
  const revoked = await store.transaction((tx) => accessTokensRepo(tx).revoke(userId, id, now));
  if (!revoked) throw new AppError('not_found', ACCESS_TOKEN_MESSAGES.notFound);
}

export interface AuthenticatedToken {
  id: string;
  userId: string;
  scopes: ReadonlySet<AccessTokenScope>;
}

/** The usable token `token` names, or null (malformed, unknown, revoked or expired: all alike). */
export async function authenticateAccessToken(
  store: DataStore,
  token: string,
  now: number,
): Promise<AuthenticatedToken | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const row = await accessTokensRepo(store.read).findUsableByHash(hashAccessToken(token), now);
  if (!row) return null;
  if (row.lastUsedAt === null || row.lastUsedAt < now - LAST_USED_EVERY_MS) {
    await store.transaction((tx) => accessTokensRepo(tx).touch(row.id, now, LAST_USED_EVERY_MS));
  }
  return { id: row.id, userId: row.userId, scopes: new Set(scopesOf(row)) };
}

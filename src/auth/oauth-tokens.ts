import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { inTransaction, type WriteTarget } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { oauthTokensRepo } from './oauth-tokens-repo.ts';

// Members' Discord OAuth2 tokens, kept so the product can read a member's own guild list (who owns or
// manages a server, whether a no-bot member really joined). Encrypted at rest with AES-256-GCM under
// config.tokenEncryptionKey; a stolen database file alone does not reveal them. Refreshed when expired.

const VERSION = 'v1';
/** Refresh this long before Discord's expiry, so a token never expires mid-request. */
const REFRESH_MARGIN_MS = 60_000;

export const SIGN_IN_AGAIN = 'Please sign out and sign in with Discord again so we can see your servers.';

export function encryptToken(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    data.toString('base64url'),
  ].join('.');
}

/** The plain token, or null when the value was not written with this key (tampered, or the key changed). */
export function decryptToken(key: Buffer, stored: string): string | null {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

export interface TokenGrant {
  accessToken: string;
  refreshToken: string | null | undefined;
  /** Seconds, as Discord's token response says. */
  expiresIn: number;
  scope: string;
}

export async function saveOAuthTokens(
  target: WriteTarget,
  key: Buffer,
  userId: string,
  grant: TokenGrant,
  now: number,
): Promise<void> {
  const row = {
    accessTokenEnc: encryptToken(key, grant.accessToken),
    refreshTokenEnc: grant.refreshToken ? encryptToken(key, grant.refreshToken) : null,
    scope: grant.scope,
    expiresAt: now + grant.expiresIn * 1000,
    updatedAt: now,
  };
  await inTransaction(target, (tx) => oauthTokensRepo(tx).save(userId, row));
}

/** Forgets a user's Discord tokens (sign-out everywhere, account deletion). */
export async function deleteOAuthTokens(target: WriteTarget, userId: string): Promise<void> {
  await inTransaction(target, (tx) => oauthTokensRepo(tx).delete(userId));
}

const refreshing = new Map<string, Promise<string>>();

/**
 * A usable access token for the user: the stored one, or a refreshed one when it is (nearly) expired.
 * Concurrent callers share one refresh, as Discord invalidates a refresh token once it is used.
 * Throws a 403 asking to sign in again when there is no usable token.
 */
export async function getAccessToken(ctx: AppContext, userId: string): Promise<string> {
  const row = await oauthTokensRepo(ctx.store.read).find(userId);
  const key = ctx.config.tokenEncryptionKey;
  if (!row) throw new AppError('forbidden', SIGN_IN_AGAIN);
  const now = ctx.clock.now();
  if (row.expiresAt - REFRESH_MARGIN_MS > now) {
    const token = decryptToken(key, row.accessTokenEnc);
    if (token) return token;
  }
  const pending = refreshing.get(userId);
  if (pending) return pending;
  const refreshToken = row.refreshTokenEnc ? decryptToken(key, row.refreshTokenEnc) : null;
  if (!refreshToken) throw new AppError('forbidden', SIGN_IN_AGAIN);
  const job = (async () => {
    try {
      const fresh = await ctx.discord.refreshUserToken(
        { id: ctx.config.discord.clientId, secret: ctx.config.discord.clientSecret },
        refreshToken,
      );
      await saveOAuthTokens(
        ctx.store,
        key,
        userId,
        {
          accessToken: fresh.access_token,
          refreshToken: fresh.refresh_token ?? refreshToken,
          expiresIn: fresh.expires_in,
          scope: fresh.scope,
        },
        ctx.clock.now(),
      );
      return fresh.access_token;
    } catch (err) {
      ctx.logger.warn('oauth token refresh failed', {
        userId,
        error: err instanceof Error ? err.message : String(err),
      });
      // Discord refused the refresh token (revoked, or the member removed the app): a new sign-in is needed.
      if (err instanceof Error && 'status' in err && (err as { status: number }).status === 400) {
        await deleteOAuthTokens(ctx.store, userId);
        throw new AppError('forbidden', SIGN_IN_AGAIN);
      }
      throw new AppError('upstream', 'Could not reach Discord. Please try again.');
    } finally {
      refreshing.delete(userId);
    }
  })();
  refreshing.set(userId, job);
  return job;
}

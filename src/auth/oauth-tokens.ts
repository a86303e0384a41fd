import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { inTransaction, type WriteTarget } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import { oauthTokensRepo } from './oauth-tokens-repo.ts';
import { errorMessage } from '../ops/error-text.ts';

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

type TokenContext = Pick<AppContext, 'store' | 'clock' | 'logger' | 'discord' | 'config'>;

/**
 * How long one process may hold the refresh of a member's tokens before another may take it over (a
 * process that died mid-refresh). Discord's token call is one request; this is far longer.
 */
export const REFRESH_LEASE_MS = 30_000;
/** How long a request waits for another process's refresh of the same tokens (real time). */
const REFRESH_WAIT_MS = 5_000;
const REFRESH_POLL_MS = 50;

/**
 * A usable access token for the user: the stored one, or a refreshed one when it is (nearly) expired.
 * Discord invalidates a refresh token once it is used, so each refresh happens once: concurrent callers
 * in this process share one promise, and across processes the refresh is claimed on the row
 * (`claimRefresh`: `updated_at` set to the end of a lease, a compare-and-set) — the others wait for the
 * claimer's new tokens. Throws a 403 asking to sign in again when there is no usable token.
 */
export async function getAccessToken(ctx: TokenContext, userId: string): Promise<string> {
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
  const job = (async () => {
    try {
      return await refreshOnce(ctx, userId);
    } finally {
      refreshing.delete(userId);
    }
  })();
  refreshing.set(userId, job);
  return job;
}

/** Claims the refresh (or waits for the process that has it) and returns a fresh access token. */
async function refreshOnce(ctx: TokenContext, userId: string): Promise<string> {
  const key = ctx.config.tokenEncryptionKey;
  const started = performance.now();
  for (;;) {
    const row = await oauthTokensRepo(ctx.store.read).find(userId);
    if (!row) throw new AppError('forbidden', SIGN_IN_AGAIN);
    const now = ctx.clock.now();
    // updated_at in the future: another process holds the refresh until then.
    if (row.updatedAt <= now) {
      if (row.expiresAt - REFRESH_MARGIN_MS > now) {
        // Another process refreshed meanwhile.
        const token = decryptToken(key, row.accessTokenEnc);
        if (token) return token;
      }
      const refreshToken = row.refreshTokenEnc ? decryptToken(key, row.refreshTokenEnc) : null;
      if (!refreshToken) throw new AppError('forbidden', SIGN_IN_AGAIN);
      const leaseUntil = now + REFRESH_LEASE_MS;
      const claimed = await ctx.store.transaction((tx) =>
        oauthTokensRepo(tx).claimRefresh(userId, row.updatedAt, leaseUntil),
      );
      if (claimed) return refreshClaimed(ctx, userId, refreshToken, leaseUntil);
    }
    if (performance.now() - started > REFRESH_WAIT_MS)
      throw new AppError('upstream', 'Could not reach Discord. Please try again.');
    await new Promise((resolve) => setTimeout(resolve, REFRESH_POLL_MS));
  }
}

async function refreshClaimed(
  ctx: TokenContext,
  userId: string,
  refreshToken: string,
  leaseUntil: number,
): Promise<string> {
  try {
    const fresh = await ctx.discord.refreshUserToken(
      { id: ctx.config.discord.clientId, secret: ctx.config.discord.clientSecret },
      refreshToken,
    );
    // Replaces the lease (updated_at) with the time of this save.
    await saveOAuthTokens(
      ctx.store,
      ctx.config.tokenEncryptionKey,
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
      error: errorMessage(err),
    });
    // Discord refused the refresh token (revoked, or the member removed the app): a new sign-in is needed.
    if (err instanceof Error && 'status' in err && (err as { status: number }).status === 400) {
      await deleteOAuthTokens(ctx.store, userId);
      throw new AppError('forbidden', SIGN_IN_AGAIN);
    }
    // A passing failure: give the claim back so the next request may try at once.
    await ctx.store.transaction((tx) =>
      oauthTokensRepo(tx).releaseRefresh(userId, leaseUntil, ctx.clock.now()),
    );
    // Discord asked for a longer wait than the person's deadline: a 503 with its Retry-After.
    if (err instanceof AppError) throw err;
    throw new AppError('upstream', 'Could not reach Discord. Please try again.');
  }
}

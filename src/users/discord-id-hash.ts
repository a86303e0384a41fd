import { createHmac } from 'node:crypto';
import type { DataStore } from '../db/engine.ts';
import { usersRepo } from './users-repo.ts';

/**
 * The keyed hash (HMAC-SHA256 under a key derived from SESSION_SECRET, which the database does not
 * hold) that `welcome_grants` is keyed by instead of the raw Discord id: the one-welcome-bonus rule and a
 * carried debt (decision 029) survive account deletion, the Discord id itself does not (issue 27 item 4).
 */
export function discordIdHash(key: Buffer, discordId: string): string {
  return createHmac('sha256', key).update(discordId).digest('base64url');
}

/** Length of a hash above; a raw Discord id (a snowflake, up to 20 digits) is never this long. */
export const DISCORD_ID_HASH_LENGTH = 43;

/**
 * Rewrites `welcome_grants` rows written before the keyed hash (raw Discord ids) to their hash, merging
 * with a hashed row of the same account. Runs at start-up; idempotent. Returns how many it rewrote.
 */
export async function hashLegacyWelcomeGrants(store: DataStore, key: Buffer): Promise<number> {
  const legacy = await usersRepo(store.read).legacyWelcomeGrantIds(DISCORD_ID_HASH_LENGTH);
  for (const rawId of legacy) {
    await store.transaction((tx) => usersRepo(tx).rekeyWelcomeGrant(rawId, discordIdHash(key, rawId)));
  }
  return legacy.length;
}

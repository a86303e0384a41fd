import { discordIdHash } from './discord-id-hash.ts';
import type { ApiUser } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import { userLocale, type Locale } from '../shared/i18n/index.ts';
import type { User } from '../db/schema.ts';
import { inTransaction, readHandle, type ReadTarget, type WriteTarget } from '../db/engine.ts';
import { AppError } from '../shared/errors.ts';
import * as ledger from '../ledger/index.ts';
import { usersRepo } from './users-repo.ts';
import { avatarUrl } from '../discord/discord-api.ts';

export const WELCOME_BONUS_CENTS = 500;

export interface DiscordProfile {
  id: string;
  username: string;
  avatar: string | null;
  email?: string | null;
  /** `locale` of GET /users/@me ("en-US"). */
  locale?: string | null;
}

/**
 * First sign-in creates the user and credits the one-time welcome bonus; later sign-ins refresh the
 * username and avatar. The bonus is paid once per Discord account (welcome_grants), ever.
 */
export async function upsertUserFromDiscord(
  target: WriteTarget,
  profile: DiscordProfile,
  now: number,
  /** Key of the hash `welcome_grants` holds instead of the Discord id (`config.discordIdHashKey`). */
  discordIdKey: Buffer,
): Promise<{ user: User; created: boolean }> {
  return inTransaction(target, async (tx) => {
    const repo = usersRepo(tx);
    const fresh = {
      discordUsername: profile.username,
      discordAvatar: profile.avatar,
      email: profile.email ?? null,
      // Campaign language targeting (issue 31 item 2) reads the member's Discord locale.
      ...(profile.locale !== undefined ? { locale: profile.locale } : {}),
    };
    const existing = await repo.refreshProfile(profile.id, fresh);
    if (existing) return { user: existing, created: false };
    const created = await repo.insertIfNew({ discordId: profile.id, ...fresh, createdAt: now });
    if (!created) {
      // A concurrent first sign-in of the same Discord account created it meanwhile (PostgreSQL).
      const user = await repo.refreshProfile(profile.id, fresh);
      if (!user) throw new Error('user neither inserted nor found');
      return { user, created: false };
    }
    // Once per Discord account, not per user row: welcome_grants outlives account deletion, so
    // deleting the account and signing up again does not pay a second bonus. Keyed by a keyed hash of
    // the Discord id, never the id itself (issue 27 item 4).
    const grantKey = discordIdHash(discordIdKey, profile.id);
    if (await repo.claimWelcomeGrant(grantKey, now))
      await ledger.credit(tx, {
        userId: created.id,
        cents: WELCOME_BONUS_CENTS,
        type: 'welcome',
        description: 'Welcome bonus',
        idempotencyKey: `welcome:${created.id}`,
        now,
      });
    else {
      // A deleted account of this Discord account left unpaid penalties: the new account starts with them.
      const debt = await repo.takeCarriedDebt(grantKey);
      if (debt > 0)
        await ledger.debit(tx, {
          userId: created.id,
          cents: debt,
          type: 'leave_penalty',
          description: 'Unpaid penalties of your deleted account',
          idempotencyKey: `carried-debt:${created.id}`,
          allowNegative: true,
          now,
        });
    }
    const user = await repo.findById(created.id);
    if (!user) throw new Error('user vanished inside its own transaction');
    return { user, created: true };
  });
}

/** The signed-in user's row; 401 when it does not exist. */
export async function getUserById(target: ReadTarget, id: string): Promise<User> {
  const user = await usersRepo(readHandle(target)).findById(id);
  if (!user) throw new AppError('unauthorized', 'Not signed in');
  return user;
}

/** Stores the app language the member chose (decision 050) and answers the user as it is now. */
export async function setUserLocale(target: WriteTarget, id: string, locale: Locale): Promise<User> {
  return inTransaction(target, async (tx) => {
    const repo = usersRepo(tx);
    await repo.setUiLocale(id, locale);
    const user = await repo.findById(id);
    if (!user) throw new AppError('unauthorized', 'Not signed in');
    return user;
  });
}

export function toApiUser(user: User, cdnUrl: string): ApiUser {
  return {
    id: user.id,
    discordId: user.discordId,
    discordUsername: user.discordUsername,
    discordAvatar: user.discordAvatar,
    avatarUrl: avatarUrl(cdnUrl, user.discordId, user.discordAvatar),
    coins: formatCents(user.coins),
    createdAt: new Date(user.createdAt).toISOString(),
    locale: userLocale(user),
  };
}

import { eq } from 'drizzle-orm';
import type { ApiUser } from '../shared/api-types.ts';
import { formatCents } from '../shared/money.ts';
import type { Db } from '../db/client.ts';
import { users, welcomeGrants, type User } from '../db/schema.ts';
import { AppError } from '../shared/errors.ts';
import { credit, debit } from '../ledger/ledger.ts';
import { avatarUrl } from '../discord/discord-api.ts';

export const WELCOME_BONUS_CENTS = 500;

export interface DiscordProfile {
  id: string;
  username: string;
  avatar: string | null;
  email?: string | null;
}

/**
 * First sign-in creates the user and credits the one-time welcome bonus; later sign-ins refresh the
 * username and avatar. The bonus is paid once per Discord account (welcome_grants), ever.
 */
export function upsertUserFromDiscord(
  db: Db,
  profile: DiscordProfile,
  now: number,
): { user: User; created: boolean } {
  return db.transaction((tx) => {
    const existing = tx.select().from(users).where(eq(users.discordId, profile.id)).get();
    if (existing) {
      const user = tx
        .update(users)
        .set({
          discordUsername: profile.username,
          discordAvatar: profile.avatar,
          email: profile.email ?? existing.email,
        })
        .where(eq(users.id, existing.id))
        .returning()
        .get();
      return { user, created: false };
    }
    const created = tx
      .insert(users)
      .values({
        discordId: profile.id,
        discordUsername: profile.username,
        discordAvatar: profile.avatar,
        email: profile.email ?? null,
        createdAt: now,
      })
      .returning()
      .get();
    // Once per Discord account, not per user row: welcome_grants outlives account deletion, so
    // deleting the account and signing up again does not pay a second bonus.
    const firstTime = tx
      .insert(welcomeGrants)
      .values({ discordId: profile.id, grantedAt: now })
      .onConflictDoNothing()
      .returning({ discordId: welcomeGrants.discordId })
      .get();
    if (firstTime)
      credit(db.$client, {
        userId: created.id,
        cents: WELCOME_BONUS_CENTS,
        type: 'welcome',
        description: 'Welcome bonus',
        idempotencyKey: `welcome:${created.id}`,
        now,
      });
    else {
      // A deleted account of this Discord account left unpaid penalties: the new account starts with them.
      const carried = tx.select().from(welcomeGrants).where(eq(welcomeGrants.discordId, profile.id)).get();
      if (carried && carried.carriedDebtCents > 0) {
        tx.update(welcomeGrants)
          .set({ carriedDebtCents: 0 })
          .where(eq(welcomeGrants.discordId, profile.id))
          .run();
        debit(db.$client, {
          userId: created.id,
          cents: carried.carriedDebtCents,
          type: 'leave_penalty',
          description: 'Unpaid penalties of your deleted account',
          idempotencyKey: `carried-debt:${created.id}`,
          allowNegative: true,
          now,
        });
      }
    }
    const user = tx.select().from(users).where(eq(users.id, created.id)).get();
    if (!user) throw new Error('user vanished inside its own transaction');
    return { user, created: true };
  });
}

export function getUserById(db: Db, id: string): User {
  const user = db.select().from(users).where(eq(users.id, id)).get();
  if (!user) throw new AppError('unauthorized', 'Not signed in');
  return user;
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
  };
}

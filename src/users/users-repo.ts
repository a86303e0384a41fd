import type { DbHandle } from '../db/engine.ts';
import type { User } from '../db/schema.ts';
import { SqliteUsersRepository } from './users-repo.sqlite.ts';
import { PgUsersRepository } from './users-repo.pg.ts';

// Users and their once-per-Discord-account welcome grant (decision 034): one async interface, a SQLite
// and a PostgreSQL implementation, held together by users-repo.test.ts on both engines.

export interface NewUser {
  discordId: string;
  discordUsername: string;
  discordAvatar: string | null;
  email: string | null;
  /** Discord locale at sign-in (targeting); absent: not known. */
  locale?: string | null;
  createdAt: number;
}

export interface UsersRepository {
  findById(id: string): Promise<User | undefined>;
  /** Whether a user row with this id exists (the session policy asks on every signed-in request). */
  exists(id: string): Promise<boolean>;
  /**
   * The user's "sessions valid after" instant (decision 039): null when never revoked, undefined when
   * there is no such user. The session policy asks on every signed-in request.
   */
  sessionsValidAfter(id: string): Promise<number | null | undefined>;
  /** Ends every session signed in at or before `at` (never moves the instant back). */
  revokeSessions(id: string, at: number): Promise<void>;
  /** Stores the app language chosen in the switcher (`ui_locale`, decision 050). */
  setUiLocale(id: string, locale: string): Promise<void>;
  /**
   * The user of this Discord id with the profile refreshed (name, avatar; email only when one is
   * given), or undefined when there is none.
   */
  refreshProfile(
    discordId: string,
    profile: {
      discordUsername: string;
      discordAvatar: string | null;
      email: string | null;
      locale?: string | null;
    },
  ): Promise<User | undefined>;
  /** Inserts the user; undefined (and nothing written) when this Discord id has a user already. */
  insertIfNew(user: NewUser): Promise<User | undefined>;
  /**
   * Records the welcome grant of a Discord account: true the first time ever, false after. The welcome
   * grant methods take the keyed hash of the Discord id (`discordIdHash`), never the raw id.
   */
  claimWelcomeGrant(discordId: string, now: number): Promise<boolean>;
  /** Takes the debt a deleted account of this Discord account left (and zeroes it); 0 when none. */
  takeCarriedDebt(discordId: string): Promise<number>;
  /** Adds unpaid penalties to what this Discord account carries to its next account (decision 029). */
  addCarriedDebt(discordId: string, cents: number, now: number): Promise<void>;
  /** `welcome_grants` keys shorter than a keyed hash: raw Discord ids written before the hash. */
  legacyWelcomeGrantIds(hashLength: number): Promise<string[]>;
  /** Moves a raw-id grant (and its carried debt) onto its keyed hash, merging with an existing row. */
  rekeyWelcomeGrant(rawId: string, hashedId: string): Promise<void>;
}

export function usersRepo(h: DbHandle): UsersRepository {
  return h.kind === 'sqlite' ? new SqliteUsersRepository(h.db) : new PgUsersRepository(h.db);
}

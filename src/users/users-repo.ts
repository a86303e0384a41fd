import type { DbHandle } from '../db/engine.ts';
import { eq, sql } from 'drizzle-orm';
import { users, welcomeGrants, type User } from '../db/schema.ts';
import { batchedByKey, getForUpdate, greatest, prepared } from '../db/query.ts';

// Users and their once-per-Discord-account welcome grant: one query definition for both engines
// (decision 044), held to its contract by users-repo.test.ts on both.

export interface NewUser {
  discordId: string;
  discordUsername: string;
  discordAvatar: string | null;
  email: string | null;
  /** Discord locale at sign-in (targeting); absent: not known. */
  locale?: string | null;
  createdAt: number;
}

/**
 * `findById` likewise: every signed-in page load reads its member (the boot data's user, spa-pages.ts);
 * building the select each time was ~5 % of a cached page load's CPU (decision 047, session 17).
 */
const FIND_BY_ID = prepared((q) =>
  q
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);
/** `exists` runs on every signed-in request: compiled once (see `prepared`). */
const EXISTS = prepared((q) =>
  q
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare(),
);
/**
 * `sessionsValidAfter` likewise (the session policy's one lookup, on every signed-in request): on
 * PostgreSQL the lookups of one event-loop turn are one statement (`batchedByKey`, issue 33 item 2).
 */
const VALID_AFTER = batchedByKey<{ at: number | null }>(
  prepared((q) =>
    q
      .select({ at: users.sessionsValidAfter })
      .from(users)
      .where(eq(users.id, sql.placeholder('key')))
      .prepare(),
  ),
  prepared((q) =>
    q
      .select({ key: users.id, at: users.sessionsValidAfter })
      .from(users)
      .where(sql`${users.id} = any(${sql.placeholder('keys')})`)
      .prepare(),
  ),
);

export class UsersRepository {
  constructor(private readonly h: DbHandle) {}

  async findById(id: string): Promise<User | undefined> {
    return FIND_BY_ID(this.h).get({ id });
  }

  /** Whether a user row with this id exists (the session policy asks on every signed-in request). */
  async exists(id: string): Promise<boolean> {
    return (await EXISTS(this.h).get({ id })) !== undefined;
  }

  /**
   * The user's "sessions valid after" instant (decision 039): null when never revoked, undefined when
   * there is no such user. The session policy asks on every signed-in request.
   */
  async sessionsValidAfter(id: string): Promise<number | null | undefined> {
    return (await VALID_AFTER(this.h, id))?.at;
  }

  /** Ends every session signed in at or before `at` (never moves the instant back). */
  async revokeSessions(id: string, at: number): Promise<void> {
    await this.h.q
      .update(users)
      .set({ sessionsValidAfter: greatest(this.h, sql`coalesce(${users.sessionsValidAfter}, 0)`, at) })
      .where(eq(users.id, id))
      .run();
  }

  /** Stores the app language chosen in the switcher (`ui_locale`, decision 050). */
  async setUiLocale(id: string, locale: string): Promise<void> {
    await this.h.q.update(users).set({ uiLocale: locale }).where(eq(users.id, id)).run();
  }

  /**
   * The user of this Discord id with the profile refreshed (name, avatar; email only when one is
   * given), or undefined when there is none.
   */
  async refreshProfile(
    discordId: string,
    profile: Pick<NewUser, 'discordUsername' | 'discordAvatar' | 'email' | 'locale'>,
  ): Promise<User | undefined> {
    return this.h.q
      .update(users)
      .set({
        discordUsername: profile.discordUsername,
        discordAvatar: profile.discordAvatar,
        email: sql`coalesce(${profile.email}, ${users.email})`,
        ...(profile.locale !== undefined ? { locale: profile.locale } : {}),
      })
      .where(eq(users.discordId, discordId))
      .returning()
      .get();
  }

  /** Inserts the user; undefined (and nothing written) when this Discord id has a user already. */
  async insertIfNew(user: NewUser): Promise<User | undefined> {
    return this.h.q
      .insert(users)
      .values(user)
      .onConflictDoNothing({ target: users.discordId })
      .returning()
      .get();
  }

  /**
   * Records the welcome grant of a Discord account: true the first time ever, false after. The welcome
   * grant methods take the keyed hash of the Discord id (`discordIdHash`), never the raw id.
   */
  async claimWelcomeGrant(discordId: string, now: number): Promise<boolean> {
    const row = await this.h.q
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now })
      .onConflictDoNothing()
      .returning({ discordId: welcomeGrants.discordId })
      .get();
    return row !== undefined;
  }

  /** Takes the debt a deleted account of this Discord account left (and zeroes it); 0 when none. */
  async takeCarriedDebt(discordId: string): Promise<number> {
    // On SQLite the writer is serialised; on PostgreSQL the row lock makes a concurrent taker wait and
    // then find 0: the debt is taken once.
    const row = await getForUpdate(
      this.h,
      this.h.q.select().from(welcomeGrants).where(eq(welcomeGrants.discordId, discordId)),
    );
    if (!row || row.carriedDebtCents <= 0) return 0;
    await this.h.q
      .update(welcomeGrants)
      .set({ carriedDebtCents: 0 })
      .where(eq(welcomeGrants.discordId, discordId))
      .run();
    return row.carriedDebtCents;
  }

  /** Adds unpaid penalties to what this Discord account carries to its next account (decision 029). */
  async addCarriedDebt(discordId: string, cents: number, now: number): Promise<void> {
    await this.h.q
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now, carriedDebtCents: cents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${cents}` },
      })
      .run();
  }

  /** `welcome_grants` keys shorter than a keyed hash: raw Discord ids written before the hash. */
  async legacyWelcomeGrantIds(hashLength: number): Promise<string[]> {
    const rows = await this.h.q
      .select({ discordId: welcomeGrants.discordId })
      .from(welcomeGrants)
      .where(sql`length(${welcomeGrants.discordId}) < ${hashLength}`)
      .all();
    return rows.map((r) => r.discordId);
  }

  /** Moves a raw-id grant (and its carried debt) onto its keyed hash, merging with an existing row. */
  async rekeyWelcomeGrant(rawId: string, hashedId: string): Promise<void> {
    const [old] = await this.h.q
      .delete(welcomeGrants)
      .where(eq(welcomeGrants.discordId, rawId))
      .returning()
      .all();
    if (!old) return;
    await this.h.q
      .insert(welcomeGrants)
      .values({ discordId: hashedId, grantedAt: old.grantedAt, carriedDebtCents: old.carriedDebtCents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${old.carriedDebtCents}` },
      })
      .run();
  }
}

export function usersRepo(h: DbHandle): UsersRepository {
  return new UsersRepository(h);
}

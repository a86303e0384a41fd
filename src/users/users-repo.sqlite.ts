import { eq, sql } from 'drizzle-orm';
import type { Statement } from 'better-sqlite3';
import type { Connection, Db } from '../db/client.ts';
import { users, welcomeGrants, type User } from '../db/schema.ts';
import type { NewUser, UsersRepository } from './users-repo.ts';

/** `exists` runs on every signed-in request: prepared once per connection. */
const existsStatements = new WeakMap<Connection, Statement<[string], number>>();
/** `sessionsValidAfter` likewise (the session policy's one lookup). */
const validAfterStatements = new WeakMap<Connection, Statement<[string], { at: number | null }>>();

export class SqliteUsersRepository implements UsersRepository {
  constructor(private readonly db: Db) {}

  async findById(id: string): Promise<User | undefined> {
    return this.db.select().from(users).where(eq(users.id, id)).get();
  }

  async exists(id: string): Promise<boolean> {
    const client = this.db.$client;
    let statement = existsStatements.get(client);
    if (!statement) {
      statement = client.prepare<[string], number>('SELECT 1 FROM users WHERE id = ?').pluck();
      existsStatements.set(client, statement);
    }
    return statement.get(id) !== undefined;
  }

  async sessionsValidAfter(id: string): Promise<number | null | undefined> {
    const client = this.db.$client;
    let statement = validAfterStatements.get(client);
    if (!statement) {
      statement = client.prepare<[string], { at: number | null }>(
        'SELECT sessions_valid_after AS at FROM users WHERE id = ?',
      );
      validAfterStatements.set(client, statement);
    }
    return statement.get(id)?.at;
  }

  async revokeSessions(id: string, at: number): Promise<void> {
    this.db
      .update(users)
      .set({ sessionsValidAfter: sql`max(coalesce(${users.sessionsValidAfter}, 0), ${at})` })
      .where(eq(users.id, id))
      .run();
  }

  async setUiLocale(id: string, locale: string): Promise<void> {
    this.db.update(users).set({ uiLocale: locale }).where(eq(users.id, id)).run();
  }

  async refreshProfile(
    discordId: string,
    profile: {
      discordUsername: string;
      discordAvatar: string | null;
      email: string | null;
      locale?: string | null;
    },
  ): Promise<User | undefined> {
    return this.db
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

  async insertIfNew(user: NewUser): Promise<User | undefined> {
    return this.db
      .insert(users)
      .values(user)
      .onConflictDoNothing({ target: users.discordId })
      .returning()
      .get();
  }

  async claimWelcomeGrant(discordId: string, now: number): Promise<boolean> {
    const row = this.db
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now })
      .onConflictDoNothing()
      .returning({ discordId: welcomeGrants.discordId })
      .get();
    return row !== undefined;
  }

  async takeCarriedDebt(discordId: string): Promise<number> {
    // Inside a store transaction (the SQLite writer is serialised), so the read and the write are one step.
    const row = this.db.select().from(welcomeGrants).where(eq(welcomeGrants.discordId, discordId)).get();
    if (!row || row.carriedDebtCents <= 0) return 0;
    this.db
      .update(welcomeGrants)
      .set({ carriedDebtCents: 0 })
      .where(eq(welcomeGrants.discordId, discordId))
      .run();
    return row.carriedDebtCents;
  }

  async addCarriedDebt(discordId: string, cents: number, now: number): Promise<void> {
    this.db
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now, carriedDebtCents: cents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${cents}` },
      })
      .run();
  }

  async legacyWelcomeGrantIds(hashLength: number): Promise<string[]> {
    const rows = this.db
      .select({ discordId: welcomeGrants.discordId })
      .from(welcomeGrants)
      .where(sql`length(${welcomeGrants.discordId}) < ${hashLength}`)
      .all();
    return rows.map((r) => r.discordId);
  }

  async rekeyWelcomeGrant(rawId: string, hashedId: string): Promise<void> {
    const [old] = this.db.delete(welcomeGrants).where(eq(welcomeGrants.discordId, rawId)).returning().all();
    if (!old) return;
    this.db
      .insert(welcomeGrants)
      .values({ discordId: hashedId, grantedAt: old.grantedAt, carriedDebtCents: old.carriedDebtCents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${old.carriedDebtCents}` },
      })
      .run();
  }
}

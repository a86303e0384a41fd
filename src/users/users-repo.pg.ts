import { eq, sql } from 'drizzle-orm';
import type { PgDbOrTx } from '../db/pg-client.ts';
import { users, welcomeGrants } from '../db/schema.pg.ts';
import type { User } from '../db/schema.ts';
import type { NewUser, UsersRepository } from './users-repo.ts';

export class PgUsersRepository implements UsersRepository {
  constructor(private readonly db: PgDbOrTx) {}

  async findById(id: string): Promise<User | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  async exists(id: string): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.id, id));
    return rows.length > 0;
  }

  async sessionsValidAfter(id: string): Promise<number | null | undefined> {
    const [row] = await this.db.select({ at: users.sessionsValidAfter }).from(users).where(eq(users.id, id));
    return row?.at;
  }

  async revokeSessions(id: string, at: number): Promise<void> {
    await this.db
      .update(users)
      .set({ sessionsValidAfter: sql`greatest(coalesce(${users.sessionsValidAfter}, 0), ${at}::bigint)` })
      .where(eq(users.id, id));
  }

  async setUiLocale(id: string, locale: string): Promise<void> {
    await this.db.update(users).set({ uiLocale: locale }).where(eq(users.id, id));
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
    const [row] = await this.db
      .update(users)
      .set({
        discordUsername: profile.discordUsername,
        discordAvatar: profile.discordAvatar,
        email: sql`coalesce(${profile.email}::text, ${users.email})`,
        ...(profile.locale !== undefined ? { locale: profile.locale } : {}),
      })
      .where(eq(users.discordId, discordId))
      .returning();
    return row;
  }

  async insertIfNew(user: NewUser): Promise<User | undefined> {
    // A concurrent first sign-in of the same Discord id waits for the other's commit, then inserts nothing.
    const [row] = await this.db
      .insert(users)
      .values(user)
      .onConflictDoNothing({ target: users.discordId })
      .returning();
    return row;
  }

  async claimWelcomeGrant(discordId: string, now: number): Promise<boolean> {
    const rows = await this.db
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now })
      .onConflictDoNothing()
      .returning({ discordId: welcomeGrants.discordId });
    return rows.length > 0;
  }

  async takeCarriedDebt(discordId: string): Promise<number> {
    // The row lock makes a concurrent taker wait and then find 0: the debt is taken once.
    const [row] = await this.db
      .select({ cents: welcomeGrants.carriedDebtCents })
      .from(welcomeGrants)
      .where(eq(welcomeGrants.discordId, discordId))
      .for('update');
    if (!row || row.cents <= 0) return 0;
    await this.db
      .update(welcomeGrants)
      .set({ carriedDebtCents: 0 })
      .where(eq(welcomeGrants.discordId, discordId));
    return row.cents;
  }

  async addCarriedDebt(discordId: string, cents: number, now: number): Promise<void> {
    await this.db
      .insert(welcomeGrants)
      .values({ discordId, grantedAt: now, carriedDebtCents: cents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${cents}` },
      });
  }

  async legacyWelcomeGrantIds(hashLength: number): Promise<string[]> {
    const rows = await this.db
      .select({ discordId: welcomeGrants.discordId })
      .from(welcomeGrants)
      .where(sql`length(${welcomeGrants.discordId}) < ${hashLength}`);
    return rows.map((r) => r.discordId);
  }

  async rekeyWelcomeGrant(rawId: string, hashedId: string): Promise<void> {
    const [old] = await this.db.delete(welcomeGrants).where(eq(welcomeGrants.discordId, rawId)).returning();
    if (!old) return;
    await this.db
      .insert(welcomeGrants)
      .values({ discordId: hashedId, grantedAt: old.grantedAt, carriedDebtCents: old.carriedDebtCents })
      .onConflictDoUpdate({
        target: welcomeGrants.discordId,
        set: { carriedDebtCents: sql`${welcomeGrants.carriedDebtCents} + ${old.carriedDebtCents}` },
      });
  }
}

import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { getForUpdate, prepared } from '../db/query.ts';
import { reminderSettings, remindersDue, campaignJoins, campaigns, users } from '../db/schema.ts';
import type { ReminderKind } from '../shared/reminder-constants.ts';

// Opt-in reminders' rows (decision 055): the member's settings and the persisted schedule, one query
// definition for both engines (decision 044), held to its contract by reminders.test.ts on SQLite and
// PostgreSQL. The rules (who is reminded of what, when, how often) live in the services beside it.

export type ReminderSettingsRow = typeof reminderSettings.$inferSelect;
export type ReminderRow = typeof remindersDue.$inferSelect;
export type SettingsChange = Partial<Omit<ReminderSettingsRow, 'userId' | 'updatedAt'>>;

const FIND_SETTINGS = prepared((q) =>
  q
    .select()
    .from(reminderSettings)
    .where(eq(reminderSettings.userId, sql.placeholder('userId')))
    .prepare(),
);

export class RemindersRepository {
  constructor(private readonly h: DbHandle) {}

  /** Read in every claim's transaction (`wantsReminder`): compiled once (see `prepared`). */
  findSettings(userId: string): Promise<ReminderSettingsRow | undefined> {
    return FIND_SETTINGS(this.h).get({ userId });
  }

  /** The settings row, locked for the transaction on PostgreSQL (SQLite's writer is serialised already). */
  lockSettings(userId: string): Promise<ReminderSettingsRow | undefined> {
    return getForUpdate(
      this.h,
      this.h.q.select().from(reminderSettings).where(eq(reminderSettings.userId, userId)),
    );
  }

  /** Writes the given fields, creating the row (every kind off) first if needed. */
  async saveSettings(userId: string, change: SettingsChange, now: number): Promise<ReminderSettingsRow> {
    const row = await this.h.q
      .insert(reminderSettings)
      .values({ userId, ...change, updatedAt: now })
      .onConflictDoUpdate({ target: reminderSettings.userId, set: { ...change, updatedAt: now } })
      .returning()
      .get();
    return row;
  }

  /**
   * Puts (user, kind, subject) on the schedule at `dueAt`. `replace`: a later event moves the same row
   * back to pending (the next "reward ready" after a new claim); otherwise an existing row stays as it
   * is (a campaign's 80 % is said once).
   */
  async schedule(
    row: { userId: string; kind: ReminderKind; subjectId: string; dueAt: number; now: number },
    replace: boolean,
  ): Promise<void> {
    const insert = this.h.q.insert(remindersDue).values({
      userId: row.userId,
      kind: row.kind,
      subjectId: row.subjectId,
      dueAt: row.dueAt,
      createdAt: row.now,
    });
    const target = [remindersDue.userId, remindersDue.kind, remindersDue.subjectId];
    await (
      replace
        ? insert.onConflictDoUpdate({
            target,
            set: { dueAt: row.dueAt, state: 'pending', sentAt: null, attempts: 0 },
          })
        : insert.onConflictDoNothing({ target })
    ).run();
  }

  /** Members with a pending reminder due at `now`, the longest waiting first. */
  async listDueMembers(now: number, limit: number): Promise<string[]> {
    const rows = await this.h.q
      .select({ userId: remindersDue.userId, dueAt: remindersDue.dueAt })
      .from(remindersDue)
      .where(and(eq(remindersDue.state, 'pending'), lte(remindersDue.dueAt, now)))
      .orderBy(asc(remindersDue.dueAt))
      .limit(limit * 5);
    return [...new Set(rows.map((r) => r.userId))].slice(0, limit);
  }

  /** The member's pending reminders due at `now`. */
  listDueOf(userId: string, now: number): Promise<ReminderRow[]> {
    return this.h.q
      .select()
      .from(remindersDue)
      .where(
        and(eq(remindersDue.userId, userId), eq(remindersDue.state, 'pending'), lte(remindersDue.dueAt, now)),
      )
      .orderBy(asc(remindersDue.dueAt))
      .all();
  }

  /** The member's reminders, any state (the Account page and tests). */
  listOf(userId: string): Promise<ReminderRow[]> {
    return this.h.q.select().from(remindersDue).where(eq(remindersDue.userId, userId)).all();
  }

  /** pending → `state` for these rows (only those still pending); how many changed. */
  async setPendingState(ids: string[], state: 'sending' | 'canceled', now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.h.q
      .update(remindersDue)
      .set(state === 'sending' ? { state, sentAt: now } : { state })
      .where(and(inArray(remindersDue.id, ids), eq(remindersDue.state, 'pending')))
      .returning({ id: remindersDue.id })
      .all();
    return rows.map((r) => r.id);
  }

  /** Moves pending rows to a later time (pace, quiet hours, a retry). */
  async defer(ids: string[], dueAt: number): Promise<void> {
    if (ids.length === 0) return;
    await this.h.q
      .update(remindersDue)
      .set({ dueAt })
      .where(and(inArray(remindersDue.id, ids), eq(remindersDue.state, 'pending')))
      .run();
  }

  /**
   * Ends rows claimed by one send (state 'sending' since `claimedAt`): a row a newer event moved back
   * to pending meanwhile is left alone.
   */
  async finishSending(
    ids: string[],
    claimedAt: number,
    outcome: { state: 'sent' | 'failed' } | { state: 'pending'; dueAt: number; uncounted?: true },
  ): Promise<void> {
    if (ids.length === 0) return;
    // A send Discord never saw (new DMs paused after a 40003) is not an attempt.
    const attempts =
      outcome.state === 'pending' && outcome.uncounted
        ? remindersDue.attempts
        : sql`${remindersDue.attempts} + 1`;
    await this.h.q
      .update(remindersDue)
      .set(
        outcome.state === 'pending'
          ? { state: 'pending', dueAt: outcome.dueAt, sentAt: null, attempts }
          : { state: outcome.state, attempts },
      )
      .where(
        and(
          inArray(remindersDue.id, ids),
          eq(remindersDue.state, 'sending'),
          eq(remindersDue.sentAt, claimedAt),
        ),
      )
      .run();
  }

  /**
   * Rows claimed (`sending`) at or before `claimedBefore` and never finished: their process died between
   * the claim and the mark. They become `failed`, never pending again (decision 055: Discord may have
   * delivered the DM already). How many.
   */
  async expireSending(claimedBefore: number): Promise<number> {
    const rows = await this.h.q
      .update(remindersDue)
      .set({ state: 'failed' })
      .where(and(eq(remindersDue.state, 'sending'), lte(remindersDue.sentAt, claimedBefore)))
      .returning({ id: remindersDue.id })
      .all();
    return rows.length;
  }

  /** Cancels the member's pending reminders of these kinds (switched off, DMs closed). */
  async cancelPending(userId: string, kinds: readonly ReminderKind[]): Promise<void> {
    if (kinds.length === 0) return;
    await this.h.q
      .update(remindersDue)
      .set({ state: 'canceled' })
      .where(
        and(
          eq(remindersDue.userId, userId),
          inArray(remindersDue.kind, [...kinds]),
          eq(remindersDue.state, 'pending'),
        ),
      )
      .run();
  }

  /** An account deleted: its settings and schedule go. */
  async deleteAllOf(userId: string): Promise<void> {
    await this.h.q.delete(remindersDue).where(eq(remindersDue.userId, userId)).run();
    await this.h.q.delete(reminderSettings).where(eq(reminderSettings.userId, userId)).run();
  }

  // ------------------------------------------------------------ what the reminders are about
  findDiscordId(userId: string): Promise<{ discordId: string } | undefined> {
    return this.h.q.select({ discordId: users.discordId }).from(users).where(eq(users.id, userId)).get();
  }

  /** A paid join's campaign name, and whether the member is still there. */
  findJoin(joinId: string): Promise<{ name: string; hasLeft: boolean } | undefined> {
    return this.h.q
      .select({ name: campaigns.name, hasLeft: campaignJoins.hasLeft })
      .from(campaignJoins)
      .innerJoin(campaigns, eq(campaigns.id, campaignJoins.campaignId))
      .where(eq(campaignJoins.id, joinId))
      .get();
  }

  findCampaign(campaignId: string): Promise<
    | {
        ownerId: string;
        name: string;
        membersRemaining: number;
        initialMemberSlots: number;
        canceledAt: number | null;
      }
    | undefined
  > {
    return this.h.q
      .select({
        ownerId: campaigns.ownerId,
        name: campaigns.name,
        membersRemaining: campaigns.membersRemaining,
        initialMemberSlots: campaigns.initialMemberSlots,
        canceledAt: campaigns.canceledAt,
      })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId))
      .get();
  }
}

export function remindersRepo(h: DbHandle): RemindersRepository {
  return new RemindersRepository(h);
}

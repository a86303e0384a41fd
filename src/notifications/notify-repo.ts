import { and, asc, desc, eq, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import { changes } from '../db/query.ts';
import {
  campaignNotifications,
  notificationAttempts,
  notificationOutbox,
  campaigns,
  users,
} from '../db/schema.ts';
import type { DeliveryStatus, OutboxEventType } from '../shared/notification-schemas.ts';

// Every query of owner notifications (decision 052), written once on the shared query layer (h.q,
// decision 044) and run on SQLite and PostgreSQL alike.

export type NotificationSettingsRow = Omit<typeof campaignNotifications.$inferSelect, 'updatedAt'>;

export type Target = 'discord' | 'endpoint';

export interface OutboxRow {
  id: string;
  eventId: string;
  campaignId: string;
  target: Target;
  eventType: OutboxEventType;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
}

export interface DeliveryLogRow extends OutboxRow {
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
}

export interface AttemptRecord {
  outboxId: string;
  campaignId: string;
  attempt: number;
  at: number;
  statusCode: number | null;
  latencyMs: number;
  outcome: 'delivered' | 'retry' | 'failed';
  error: string | null;
}

const o = notificationOutbox;
const OUTBOX_COLUMNS = {
  id: o.id,
  eventId: o.eventId,
  campaignId: o.campaignId,
  target: o.target,
  eventType: o.eventType,
  payload: o.payload,
  status: o.status,
  attempts: o.attempts,
  nextAttemptAt: o.nextAttemptAt,
  createdAt: o.createdAt,
};

export class NotifyRepository {
  constructor(private readonly h: DbHandle) {}

  findSettings(campaignId: string): Promise<NotificationSettingsRow | undefined> {
    const t = campaignNotifications;
    return this.h.q
      .select({
        campaignId: t.campaignId,
        discordWebhook: t.discordWebhook,
        endpointUrl: t.endpointUrl,
        endpointSecret: t.endpointSecret,
        events: t.events,
      })
      .from(t)
      .where(eq(t.campaignId, campaignId))
      .get();
  }

  async saveSettings(row: NotificationSettingsRow, now: number): Promise<void> {
    const t = campaignNotifications;
    const { campaignId: _key, ...values } = row;
    await this.h.q
      .insert(t)
      .values({ ...row, updatedAt: now })
      .onConflictDoUpdate({ target: t.campaignId, set: { ...values, updatedAt: now } })
      .run();
  }

  /** The campaign, when `ownerId` owns it. */
  findOwnedCampaign(campaignId: string, ownerId: string): Promise<{ id: string; name: string } | undefined> {
    return this.h.q
      .select({ id: campaigns.id, name: campaigns.name })
      .from(campaigns)
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.ownerId, ownerId)))
      .get();
  }

  /** Name and slots of a campaign as they are now (inside the event's transaction: after its writes). */
  campaignSlots(
    campaignId: string,
  ): Promise<{ id: string; name: string; slots: number; slotsRemaining: number } | undefined> {
    return this.h.q
      .select({
        id: campaigns.id,
        name: campaigns.name,
        slots: campaigns.initialMemberSlots,
        slotsRemaining: campaigns.membersRemaining,
      })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId))
      .get();
  }

  async discordIdOf(userId: string): Promise<string | undefined> {
    return (
      await this.h.q.select({ discordId: users.discordId }).from(users).where(eq(users.id, userId)).get()
    )?.discordId;
  }

  /** One outbox row per target; a repeated (event, target) writes nothing (the unique key). */
  async enqueue({
    now,
    ...row
  }: Pick<OutboxRow, 'eventId' | 'campaignId' | 'target' | 'eventType' | 'payload'> & {
    now: number;
  }): Promise<void> {
    await this.h.q
      .insert(o)
      .values({
        id: crypto.randomUUID(),
        ...row,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        createdAt: now,
      })
      .onConflictDoNothing()
      .run();
  }

  /** Pending rows due at `now` that nobody holds, oldest first (candidates: claim each). */
  async listDue(now: number, limit: number): Promise<OutboxRow[]> {
    return (await this.h.q
      .select(OUTBOX_COLUMNS)
      .from(o)
      .where(
        and(
          eq(o.status, 'pending'),
          lte(o.nextAttemptAt, now),
          or(isNull(o.leaseUntil), lte(o.leaseUntil, now)),
        ),
      )
      .orderBy(asc(o.nextAttemptAt), asc(o.createdAt))
      .limit(limit)
      .all()) as OutboxRow[];
  }

  /**
   * Holds a due row until `leaseUntil` under `token`; false when another job claimed it first. The
   * condition is restated in the write, so of two processes claiming one row one wins (PostgreSQL
   * re-checks it on the locked row).
   */
  async claim(id: string, now: number, leaseUntil: number, token: string): Promise<boolean> {
    const result = await this.h.q
      .update(o)
      .set({ leaseUntil, leaseToken: token })
      .where(
        and(
          eq(o.id, id),
          eq(o.status, 'pending'),
          lte(o.nextAttemptAt, now),
          or(isNull(o.leaseUntil), lte(o.leaseUntil, now)),
        ),
      )
      .run();
    return changes(result) === 1;
  }

  /**
   * Settles an attempt of a row this job holds (`token`): the row's new state, then the attempt's log
   * entry. false when the lease was lost (nothing written).
   */
  async settle(
    token: string,
    attempt: AttemptRecord,
    next: { status: DeliveryStatus; nextAttemptAt: number },
  ): Promise<boolean> {
    const updated = await this.h.q
      .update(o)
      .set({
        status: next.status,
        attempts: attempt.attempt,
        nextAttemptAt: next.nextAttemptAt,
        finishedAt: next.status === 'pending' ? null : attempt.at,
        leaseUntil: null,
        leaseToken: null,
      })
      .where(and(eq(o.id, attempt.outboxId), eq(o.leaseToken, token)))
      .run();
    if (changes(updated) !== 1) return false;
    await this.h.q
      .insert(notificationAttempts)
      .values({ id: crypto.randomUUID(), ...attempt })
      .run();
    return true;
  }

  /** A held row whose target was removed: it will not go out. */
  async drop(id: string, token: string, now: number): Promise<void> {
    await this.h.q
      .update(o)
      .set({ status: 'dropped', finishedAt: now, leaseUntil: null, leaseToken: null })
      .where(and(eq(o.id, id), eq(o.leaseToken, token)))
      .run();
  }

  /** Pending deliveries of the campaign's test event (one at a time). */
  async countPendingTests(campaignId: string): Promise<number> {
    const row = await this.h.q
      .select({ n: sql<number>`count(*)` })
      .from(o)
      .where(and(eq(o.campaignId, campaignId), eq(o.eventType, 'test'), eq(o.status, 'pending')))
      .get();
    return Number(row?.n ?? 0);
  }

  /**
   * Account deletion: the owner's settings (a webhook token, a signing secret) and deliveries (their
   * payloads name the campaign and its members' Discord ids) go.
   */
  async deleteAllOfOwner(ownerId: string): Promise<void> {
    const owned = this.h.q.select({ id: campaigns.id }).from(campaigns).where(eq(campaigns.ownerId, ownerId));
    await this.h.q.delete(notificationAttempts).where(inArray(notificationAttempts.campaignId, owned)).run();
    await this.h.q.delete(o).where(inArray(o.campaignId, owned)).run();
    await this.h.q
      .delete(campaignNotifications)
      .where(inArray(campaignNotifications.campaignId, owned))
      .run();
  }

  /** Retention: finished deliveries (and their attempts) created before `before`; how many. */
  async pruneFinished(before: number): Promise<number> {
    const finished = and(ne(o.status, 'pending'), lt(o.createdAt, before));
    const old = this.h.q.select({ id: o.id }).from(o).where(finished);
    await this.h.q.delete(notificationAttempts).where(inArray(notificationAttempts.outboxId, old)).run();
    return changes(await this.h.q.delete(o).where(finished).run());
  }

  /** The campaign's latest deliveries with their last attempt, newest first. */
  async listLog(campaignId: string, limit: number): Promise<DeliveryLogRow[]> {
    const a = notificationAttempts;
    return (await this.h.q
      .select({
        ...OUTBOX_COLUMNS,
        lastStatusCode: a.statusCode,
        lastLatencyMs: a.latencyMs,
        lastError: a.error,
      })
      .from(o)
      .leftJoin(a, and(eq(a.outboxId, o.id), eq(a.attempt, o.attempts)))
      .where(eq(o.campaignId, campaignId))
      .orderBy(desc(o.createdAt), desc(o.id))
      .limit(limit)
      .all()) as DeliveryLogRow[];
  }
}

export function notifyRepo(h: DbHandle): NotifyRepository {
  return new NotifyRepository(h);
}

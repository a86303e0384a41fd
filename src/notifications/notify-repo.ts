import { sql, type SQL } from 'drizzle-orm';
import type { DbHandle } from '../db/engine.ts';
import type { DeliveryStatus, OutboxEventType } from '../shared/notification-schemas.ts';

// Every query of owner notifications (decision 052), written once in the SQL both engines read alike
// and run by a two-line executor per engine. When the shared query layer lands this module is the one
// place to move onto it.

async function rows<T>(h: DbHandle, q: SQL): Promise<T[]> {
  return h.kind === 'sqlite' ? h.db.all<T>(q) : ((await h.db.execute(q)).rows as T[]);
}
async function changes(h: DbHandle, q: SQL): Promise<number> {
  return h.kind === 'sqlite' ? h.db.run(q).changes : ((await h.db.execute(q)).rowCount ?? 0);
}

export interface NotificationSettingsRow {
  campaignId: string;
  /** Encrypted. */
  discordWebhook: string | null;
  endpointUrl: string | null;
  /** Encrypted. */
  endpointSecret: string | null;
  events: string;
}

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

const OUTBOX_COLUMNS = sql.raw(`o.id AS "id", o.event_id AS "eventId", o.campaign_id AS "campaignId",
  o.target AS "target", o.event_type AS "eventType", o.payload AS "payload", o.status AS "status",
  o.attempts AS "attempts", o.next_attempt_at AS "nextAttemptAt", o.created_at AS "createdAt"`);

export function notifyRepo(h: DbHandle) {
  return {
    async findSettings(campaignId: string): Promise<NotificationSettingsRow | undefined> {
      const [row] = await rows<NotificationSettingsRow>(
        h,
        sql`SELECT campaign_id AS "campaignId", discord_webhook AS "discordWebhook", endpoint_url AS "endpointUrl",
          endpoint_secret AS "endpointSecret", events AS "events"
        FROM campaign_notifications WHERE campaign_id = ${campaignId}`,
      );
      return row;
    },

    async saveSettings(row: NotificationSettingsRow, now: number): Promise<void> {
      await changes(
        h,
        sql`INSERT INTO campaign_notifications (campaign_id, discord_webhook, endpoint_url, endpoint_secret, events, updated_at)
        VALUES (${row.campaignId}, ${row.discordWebhook}, ${row.endpointUrl}, ${row.endpointSecret}, ${row.events}, ${now})
        ON CONFLICT (campaign_id) DO UPDATE SET discord_webhook = excluded.discord_webhook,
          endpoint_url = excluded.endpoint_url, endpoint_secret = excluded.endpoint_secret,
          events = excluded.events, updated_at = excluded.updated_at`,
      );
    },

    /** The campaign's owner and name, when `ownerId` owns it. */
    async findOwnedCampaign(
      campaignId: string,
      ownerId: string,
    ): Promise<{ id: string; name: string } | undefined> {
      const [row] = await rows<{ id: string; name: string }>(
        h,
        sql`SELECT id AS "id", name AS "name" FROM servers WHERE id = ${campaignId} AND owner_id = ${ownerId}`,
      );
      return row;
    },

    async campaignName(campaignId: string): Promise<string | undefined> {
      const [row] = await rows<{ name: string }>(
        h,
        sql`SELECT name AS "name" FROM servers WHERE id = ${campaignId}`,
      );
      return row?.name;
    },

    /** Name and slots of a campaign as they are now (inside the event's transaction: after its writes). */
    async campaignSlots(
      campaignId: string,
    ): Promise<{ id: string; name: string; slots: number; slotsRemaining: number } | undefined> {
      const [row] = await rows<{ id: string; name: string; slots: number; slotsRemaining: number }>(
        h,
        sql`SELECT id AS "id", name AS "name", initial_member_slots AS "slots", members_remaining AS "slotsRemaining"
        FROM servers WHERE id = ${campaignId}`,
      );
      return row && { ...row, slots: Number(row.slots), slotsRemaining: Number(row.slotsRemaining) };
    },

    async discordIdOf(userId: string): Promise<string | undefined> {
      const [row] = await rows<{ discordId: string }>(
        h,
        sql`SELECT discord_id AS "discordId" FROM users WHERE id = ${userId}`,
      );
      return row?.discordId;
    },

    /** One outbox row per target; a repeated (event, target) writes nothing (the unique key). */
    async enqueue(row: {
      eventId: string;
      campaignId: string;
      target: Target;
      eventType: OutboxEventType;
      payload: string;
      now: number;
    }): Promise<void> {
      await changes(
        h,
        sql`INSERT INTO notification_outbox (id, event_id, campaign_id, target, event_type, payload, status, attempts, next_attempt_at, created_at)
        VALUES (${crypto.randomUUID()}, ${row.eventId}, ${row.campaignId}, ${row.target}, ${row.eventType}, ${row.payload},
          'pending', 0, ${row.now}, ${row.now})
        ON CONFLICT (event_id, target) DO NOTHING`,
      );
    },

    /** Pending rows due at `now` that nobody holds, oldest first (candidates: claim each). */
    listDue(now: number, limit: number): Promise<OutboxRow[]> {
      return rows<OutboxRow>(
        h,
        sql`SELECT ${OUTBOX_COLUMNS} FROM notification_outbox o
        WHERE o.status = 'pending' AND o.next_attempt_at <= ${now} AND (o.lease_until IS NULL OR o.lease_until <= ${now})
        ORDER BY o.next_attempt_at, o.created_at LIMIT ${limit}`,
      );
    },

    /**
     * Holds a due row until `leaseUntil` under `token`; false when another job claimed it first. The
     * condition is restated in the write, so of two processes claiming one row one wins (PostgreSQL
     * re-checks it on the locked row).
     */
    async claim(id: string, now: number, leaseUntil: number, token: string): Promise<boolean> {
      return (
        (await changes(
          h,
          sql`UPDATE notification_outbox SET lease_until = ${leaseUntil}, lease_token = ${token}
          WHERE id = ${id} AND status = 'pending' AND next_attempt_at <= ${now}
            AND (lease_until IS NULL OR lease_until <= ${now})`,
        )) === 1
      );
    },

    /**
     * Settles an attempt of a row this job holds (`token`): the log entry, then the row's new state.
     * false when the lease was lost (nothing written).
     */
    async settle(
      token: string,
      attempt: AttemptRecord,
      next: { status: DeliveryStatus; nextAttemptAt: number },
    ): Promise<boolean> {
      const finishedAt = next.status === 'pending' ? null : attempt.at;
      const updated = await changes(
        h,
        sql`UPDATE notification_outbox SET status = ${next.status}, attempts = ${attempt.attempt},
          next_attempt_at = ${next.nextAttemptAt}, finished_at = ${finishedAt}, lease_until = NULL, lease_token = NULL
        WHERE id = ${attempt.outboxId} AND lease_token = ${token}`,
      );
      if (updated !== 1) return false;
      await changes(
        h,
        sql`INSERT INTO notification_attempts (id, outbox_id, campaign_id, attempt, at, status_code, latency_ms, outcome, error)
        VALUES (${crypto.randomUUID()}, ${attempt.outboxId}, ${attempt.campaignId}, ${attempt.attempt}, ${attempt.at},
          ${attempt.statusCode}, ${attempt.latencyMs}, ${attempt.outcome}, ${attempt.error})`,
      );
      return true;
    },

    /** A held row whose target was removed: it will not go out. */
    async drop(id: string, token: string, now: number): Promise<void> {
      await changes(
        h,
        sql`UPDATE notification_outbox SET status = 'dropped', finished_at = ${now}, lease_until = NULL, lease_token = NULL
        WHERE id = ${id} AND lease_token = ${token}`,
      );
    },

    /** Pending deliveries of the campaign's test event (one at a time). */
    async countPendingTests(campaignId: string): Promise<number> {
      const [row] = await rows<{ n: number }>(
        h,
        sql`SELECT COUNT(*) AS "n" FROM notification_outbox
        WHERE campaign_id = ${campaignId} AND event_type = 'test' AND status = 'pending'`,
      );
      return Number(row?.n ?? 0);
    },

    /**
     * Account deletion: the owner's settings (a webhook token, a signing secret) and deliveries (their
     * payloads name the campaign and its members' Discord ids) go.
     */
    async deleteAllOfOwner(ownerId: string): Promise<void> {
      const campaigns = sql`SELECT id FROM servers WHERE owner_id = ${ownerId}`;
      await changes(h, sql`DELETE FROM notification_attempts WHERE campaign_id IN (${campaigns})`);
      await changes(h, sql`DELETE FROM notification_outbox WHERE campaign_id IN (${campaigns})`);
      await changes(h, sql`DELETE FROM campaign_notifications WHERE campaign_id IN (${campaigns})`);
    },

    /** Retention: finished deliveries (and their attempts) created before `before`; how many. */
    async pruneFinished(before: number): Promise<number> {
      const old = sql`SELECT id FROM notification_outbox WHERE status <> 'pending' AND created_at < ${before}`;
      await changes(h, sql`DELETE FROM notification_attempts WHERE outbox_id IN (${old})`);
      return changes(
        h,
        sql`DELETE FROM notification_outbox WHERE status <> 'pending' AND created_at < ${before}`,
      );
    },

    /** The campaign's latest deliveries with their last attempt, newest first. */
    listLog(campaignId: string, limit: number): Promise<DeliveryLogRow[]> {
      return rows<DeliveryLogRow>(
        h,
        sql`SELECT ${OUTBOX_COLUMNS}, a.status_code AS "lastStatusCode", a.latency_ms AS "lastLatencyMs", a.error AS "lastError"
        FROM notification_outbox o
        LEFT JOIN notification_attempts a ON a.outbox_id = o.id AND a.attempt = o.attempts
        WHERE o.campaign_id = ${campaignId}
        ORDER BY o.created_at DESC, o.id DESC LIMIT ${limit}`,
      );
    },
  };
}

export type NotifyRepository = ReturnType<typeof notifyRepo>;

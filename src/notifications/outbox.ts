import { createHash } from 'node:crypto';
import type { DbHandle } from '../db/engine.ts';
import type { NotificationEvent, OutboxEventType } from '../shared/notification-schemas.ts';
import { notifyRepo, type Target } from './notify-repo.ts';

// Writing owner notifications into the outbox (decision 052). Called inside the transaction of the
// event it reports (verifyJoin, recordLeave, the bot's pause and resume, the no-bot claim), so the row
// commits with the event or not at all. Nothing leaves the process here: the delivery job sends later,
// so a member's request never waits on an owner's endpoint.

/** What a receiver gets (the endpoint's JSON body; the Discord message is written from it). */
export interface NotificationPayload {
  /** Receivers dedupe on it: a delivery may come more than once (at-least-once). */
  id: string;
  type: OutboxEventType;
  /** ISO time of the event. */
  createdAt: string;
  campaign: { id: string; name: string; slots: number; slotsRemaining: number };
  /** The member of join events (their Discord id). */
  member?: { discordId: string };
  /** Join events: the reward paid or the penalty charged, "0.50". */
  amount?: string;
  /** campaign.paused: why. */
  reason?: 'bot_removed';
}

/**
 * An event id that is the same however often the event is written: a transaction retried after a
 * deadlock, or a replayed Discord event, enqueues nothing new (the outbox's unique key).
 */
export function eventIdFor(key: string): string {
  return `evt_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** The campaign's targets when it subscribes to `type` (the test event: every target). */
function targetsFor(
  settings: { discordWebhook: string | null; endpointUrl: string | null; events: string } | undefined,
  type: OutboxEventType,
): Target[] {
  if (!settings) return [];
  if (type !== 'test' && !settings.events.split(',').includes(type)) return [];
  const targets: Target[] = [];
  if (settings.discordWebhook) targets.push('discord');
  if (settings.endpointUrl) targets.push('endpoint');
  return targets;
}

/**
 * Writes the event's outbox rows (one per target the campaign's owner set up for it); nothing when
 * the owner did not subscribe. `key` names the event once (see eventIdFor). Returns the targets.
 */
export async function enqueueCampaignEvent(
  tx: DbHandle,
  event: {
    campaignId: string;
    type: OutboxEventType;
    key: string;
    at: number;
    memberUserId?: string;
    amount?: string;
    reason?: NotificationPayload['reason'];
  },
): Promise<Target[]> {
  const repo = notifyRepo(tx);
  const targets = targetsFor(await repo.findSettings(event.campaignId), event.type);
  if (targets.length === 0) return [];
  const campaign = await repo.campaignSlots(event.campaignId);
  if (!campaign) return [];
  const payload: NotificationPayload = {
    id: eventIdFor(event.key),
    type: event.type,
    createdAt: new Date(event.at).toISOString(),
    campaign,
  };
  if (event.memberUserId) {
    const discordId = await repo.discordIdOf(event.memberUserId);
    if (discordId) payload.member = { discordId };
  }
  if (event.amount !== undefined) payload.amount = event.amount;
  if (event.reason) payload.reason = event.reason;
  const body = JSON.stringify(payload);
  for (const target of targets) {
    await repo.enqueue({
      eventId: payload.id,
      campaignId: event.campaignId,
      target,
      eventType: event.type,
      payload: body,
      now: event.at,
    });
  }
  return targets;
}

/** enqueueCampaignEvent for each campaign (the bot pauses and resumes a guild's campaigns together). */
export async function enqueueForCampaigns(
  tx: DbHandle,
  campaignIds: string[],
  type: Extract<NotificationEvent, 'campaign.paused' | 'campaign.resumed'>,
  at: number,
): Promise<void> {
  for (const campaignId of campaignIds) {
    await enqueueCampaignEvent(tx, {
      campaignId,
      type,
      key: `${type}:${campaignId}:${at}`,
      at,
      ...(type === 'campaign.paused' ? { reason: 'bot_removed' as const } : {}),
    });
  }
}

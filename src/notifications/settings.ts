import type { AppContext } from '../context.ts';
import { decryptToken, encryptToken } from '../auth/oauth-tokens.ts';
import { AppError } from '../shared/errors.ts';
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_MESSAGES,
  parseDiscordWebhookUrl,
  type ApiNotificationDelivery,
  type ApiNotificationSettings,
  type NotificationEvent,
  type NotificationSettingsInput,
} from '../shared/notification-schemas.ts';
import { EndpointRefused, resolvePublicAddress } from './endpoint-request.ts';
import { notifyRepo, type NotificationSettingsRow } from './notify-repo.ts';
import { enqueueCampaignEvent } from './outbox.ts';
import { newSigningSecret } from './signature.ts';

// The owner's side of notifications (decision 052): settings per campaign, "Send test" and the
// delivery log. Only the campaign's owner reaches any of it; another user's campaign is "not found".

type Ctx = Pick<AppContext, 'store' | 'clock' | 'config'>;

/** Deliveries the log shows. */
export const DELIVERY_LOG_SIZE = 20;

async function requireOwned(ctx: Ctx, userId: string, campaignId: string): Promise<void> {
  if (!(await notifyRepo(ctx.store.read).findOwnedCampaign(campaignId, userId)))
    throw new AppError('not_found', NOTIFICATION_MESSAGES.campaignMissing);
}

function maskWebhook(url: string): string {
  const parsed = parseDiscordWebhookUrl(url);
  if (!parsed) return 'Discord webhook';
  return `discord.com/api/webhooks/${parsed.id.slice(0, 6)}…/…${parsed.token.slice(-4)}`;
}

function toApi(
  ctx: Ctx,
  row: NotificationSettingsRow | undefined,
  newSecret?: string,
): ApiNotificationSettings {
  const key = ctx.config.tokenEncryptionKey;
  const webhook = row?.discordWebhook ? decryptToken(key, row.discordWebhook) : null;
  const secret = row?.endpointSecret ? decryptToken(key, row.endpointSecret) : null;
  const subscribed = new Set(row?.events.split(',') ?? []);
  return {
    discordWebhook: webhook ? maskWebhook(webhook) : null,
    endpointUrl: row?.endpointUrl ?? null,
    endpointSecretHint: secret ? `…${secret.slice(-4)}` : null,
    events: NOTIFICATION_EVENTS.filter((e) => subscribed.has(e)),
    ...(newSecret ? { endpointSecret: newSecret } : {}),
  };
}

export async function getNotificationSettings(
  ctx: Ctx,
  userId: string,
  campaignId: string,
): Promise<ApiNotificationSettings> {
  await requireOwned(ctx, userId, campaignId);
  return toApi(ctx, await notifyRepo(ctx.store.read).findSettings(campaignId));
}

/** An endpoint must lead to a public address (checked again at every delivery). */
async function checkEndpoint(ctx: Ctx, endpointUrl: string): Promise<void> {
  const url = new URL(endpointUrl);
  const allowPrivate = ctx.config.notifications.allowPrivateTargets;
  if (url.protocol !== 'https:' && !allowPrivate)
    throw new AppError('bad_request', NOTIFICATION_MESSAGES.endpointInvalid);
  try {
    await resolvePublicAddress(url.hostname, allowPrivate);
  } catch (err) {
    if (err instanceof EndpointRefused && err.message === 'not public')
      throw new AppError('bad_request', NOTIFICATION_MESSAGES.endpointNotPublic);
    throw new AppError('bad_request', NOTIFICATION_MESSAGES.endpointUnresolvable);
  }
}

/**
 * Saves the campaign's settings. A new endpoint URL (or rotateSecret) comes with a new signing secret,
 * returned in this answer only. The endpoint's address is checked (DNS) before the transaction.
 */
export async function updateNotificationSettings(
  ctx: Ctx,
  userId: string,
  campaignId: string,
  input: NotificationSettingsInput,
): Promise<ApiNotificationSettings> {
  await requireOwned(ctx, userId, campaignId);
  if (input.endpointUrl) await checkEndpoint(ctx, input.endpointUrl);
  const key = ctx.config.tokenEncryptionKey;
  return ctx.store.transaction(async (tx) => {
    const repo = notifyRepo(tx);
    const saved = await repo.findSettings(campaignId);
    const row: NotificationSettingsRow = {
      campaignId,
      discordWebhook: saved?.discordWebhook ?? null,
      endpointUrl: saved?.endpointUrl ?? null,
      endpointSecret: saved?.endpointSecret ?? null,
      events: [...new Set<NotificationEvent>(input.events)].join(','),
    };
    if (input.discordWebhookUrl !== undefined)
      row.discordWebhook =
        input.discordWebhookUrl === null ? null : encryptToken(key, input.discordWebhookUrl);
    let newSecret: string | undefined;
    if (input.endpointUrl === null) {
      row.endpointUrl = null;
      row.endpointSecret = null;
    } else if (input.endpointUrl !== undefined && input.endpointUrl !== saved?.endpointUrl) {
      row.endpointUrl = input.endpointUrl;
      newSecret = newSigningSecret();
    }
    if (input.rotateSecret && row.endpointUrl) newSecret = newSigningSecret();
    if (newSecret) row.endpointSecret = encryptToken(key, newSecret);
    await repo.saveSettings(row, ctx.clock.now());
    return toApi(ctx, row, newSecret);
  });
}

/** "Send test": one test event to every target, through the outbox like any other (one at a time). */
export async function sendTestNotification(
  ctx: Ctx,
  userId: string,
  campaignId: string,
): Promise<{ targets: string[] }> {
  await requireOwned(ctx, userId, campaignId);
  return ctx.store.transaction(async (tx) => {
    if ((await notifyRepo(tx).countPendingTests(campaignId)) > 0)
      throw new AppError('conflict', NOTIFICATION_MESSAGES.testPending);
    const now = ctx.clock.now();
    const targets = await enqueueCampaignEvent(tx, {
      campaignId,
      type: 'test',
      key: `test:${campaignId}:${crypto.randomUUID()}`,
      at: now,
    });
    if (targets.length === 0) throw new AppError('bad_request', NOTIFICATION_MESSAGES.noTarget);
    return { targets };
  });
}

export async function listDeliveries(
  ctx: Ctx,
  userId: string,
  campaignId: string,
): Promise<ApiNotificationDelivery[]> {
  await requireOwned(ctx, userId, campaignId);
  const rows = await notifyRepo(ctx.store.read).listLog(campaignId, DELIVERY_LOG_SIZE);
  const iso = (ms: number) => new Date(Number(ms)).toISOString();
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    eventType: r.eventType,
    target: r.target,
    status: r.status,
    attempts: Number(r.attempts),
    createdAt: iso(r.createdAt),
    nextAttemptAt: r.status === 'pending' ? iso(r.nextAttemptAt) : null,
    lastStatusCode: r.lastStatusCode === null ? null : Number(r.lastStatusCode),
    lastLatencyMs: r.lastLatencyMs === null ? null : Number(r.lastLatencyMs),
    lastError: r.lastError,
  }));
}

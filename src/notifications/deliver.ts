import type { AppContext } from '../context.ts';
import { decryptToken } from '../auth/oauth-tokens.ts';
import {
  DELIVERY_TIMEOUT_MS,
  MAX_DELIVERY_ATTEMPTS,
  RETRY_DELAYS_MS,
  SIGNATURE_HEADER,
  parseDiscordWebhookUrl,
} from '../shared/notification-schemas.ts';
import { discordWebhookBody } from './discord-message.ts';
import { postToEndpoint, type EndpointAttempt } from './endpoint-request.ts';
import { notifyRepo, type OutboxRow } from './notify-repo.ts';
import type { NotificationPayload } from './outbox.ts';
import { signatureHeader } from './signature.ts';
import { recordNotificationDelivery } from '../metrics.ts';
import { deliveryError } from '../shared/delivery-errors.ts';

// The delivery job (decision 052): a periodic job (src/background.ts) that sends what the outbox holds.
//   1. lists due rows and claims each with a lease (a conditional UPDATE), so two processes — or a run
//      that overlaps a slow one — never send the same row at once;
//   2. sends outside any transaction, a few at a time, each within DELIVERY_TIMEOUT_MS;
//   3. settles each attempt in a transaction: the attempt's log row (status, latency, error — never the
//      answer's body) and the row's next state: delivered, a retry after RETRY_DELAYS_MS, or failed
//      after MAX_DELIVERY_ATTEMPTS (or at once when retrying cannot help).
// A process that dies mid-send leaves its lease to expire; the row is sent again (at-least-once, the
// event id lets receivers dedupe).

export type DeliveryContext = Pick<AppContext, 'store' | 'clock' | 'config' | 'logger'>;

/** A claimed row is held this long: longer than any batch of sends. */
export const DELIVERY_LEASE_MS = 2 * 60_000;
const BATCH = 50;
const CONCURRENCY = 4;

export interface DeliveryRun {
  claimed: number;
  delivered: number;
  retrying: number;
  failed: number;
  dropped: number;
}

export async function deliverDueNotifications(ctx: DeliveryContext): Promise<DeliveryRun> {
  const run: DeliveryRun = { claimed: 0, delivered: 0, retrying: 0, failed: 0, dropped: 0 };
  const now = ctx.clock.now();
  const due = await notifyRepo(ctx.store.read).listDue(now, BATCH);
  if (due.length === 0) return run;
  const token = crypto.randomUUID();
  const claimed = await ctx.store.transaction(async (tx) => {
    const mine: OutboxRow[] = [];
    for (const row of due)
      if (await notifyRepo(tx).claim(row.id, now, now + DELIVERY_LEASE_MS, token)) mine.push(row);
    return mine;
  });
  run.claimed = claimed.length;
  const queue = [...claimed];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const outcome = await deliverOne(ctx, row, token);
      run[outcome] += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
  if (run.failed > 0 || run.retrying > 0) ctx.logger.info('notification deliveries', { ...run });
  return run;
}

type Outcome = 'delivered' | 'retrying' | 'failed' | 'dropped';

async function deliverOne(ctx: DeliveryContext, row: OutboxRow, token: string): Promise<Outcome> {
  const settings = await notifyRepo(ctx.store.read).findSettings(row.campaignId);
  const key = ctx.config.tokenEncryptionKey;
  let result: EndpointAttempt & { retryAfterMs?: number };
  if (row.target === 'discord') {
    const url = settings?.discordWebhook ? decryptToken(key, settings.discordWebhook) : null;
    const webhook = url ? parseDiscordWebhookUrl(url) : null;
    if (!webhook) return drop(ctx, row, token);
    result = await sendToDiscord(ctx, webhook, JSON.parse(row.payload) as NotificationPayload);
  } else {
    const secret = settings?.endpointSecret ? decryptToken(key, settings.endpointSecret) : null;
    if (!settings?.endpointUrl || !secret) return drop(ctx, row, token);
    result = await postToEndpoint(
      settings.endpointUrl,
      row.payload,
      {
        'Content-Type': 'application/json',
        'User-Agent': 'CoinSync-Webhooks/1.0',
        'X-CoinSync-Event': row.eventType,
        'X-CoinSync-Event-Id': row.eventId,
        'X-CoinSync-Delivery': row.id,
        [SIGNATURE_HEADER]: signatureHeader(secret, row.payload, ctx.clock.now()),
      },
      { allowPrivate: ctx.config.notifications.allowPrivateTargets, timeoutMs: DELIVERY_TIMEOUT_MS },
    );
  }
  const at = ctx.clock.now();
  const attempt = row.attempts + 1;
  const ok = result.error === null;
  const last = result.permanent || attempt >= MAX_DELIVERY_ATTEMPTS;
  const outcome = ok ? 'delivered' : last ? 'failed' : 'retry';
  const wait = Math.max(RETRY_DELAYS_MS[attempt - 1] ?? 0, result.retryAfterMs ?? 0);
  const settled = await ctx.store.transaction((tx) =>
    notifyRepo(tx).settle(
      token,
      {
        outboxId: row.id,
        campaignId: row.campaignId,
        attempt,
        at,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        outcome,
        error: result.error,
      },
      {
        status: outcome === 'delivered' ? 'delivered' : outcome === 'failed' ? 'failed' : 'pending',
        nextAttemptAt: outcome === 'retry' ? at + wait : row.nextAttemptAt,
      },
    ),
  );
  recordNotificationDelivery(row.target, outcome);
  if (!settled) ctx.logger.warn('notification delivery: lease lost before settling', { outboxId: row.id });
  if (outcome === 'failed')
    ctx.logger.info('notification delivery gave up', {
      outboxId: row.id,
      campaignId: row.campaignId,
      target: row.target,
      attempts: attempt,
      error: result.error,
    });
  return outcome === 'retry' ? 'retrying' : outcome;
}

/** Finished deliveries are kept this long for the owner's log, then deleted (the prune job). */
export const DELIVERY_RETENTION_MS = 30 * 24 * 60 * 60_000;

/** Deletes finished deliveries older than DELIVERY_RETENTION_MS; how many. */
export async function pruneDeliveries(ctx: Pick<AppContext, 'store' | 'clock'>): Promise<number> {
  const before = ctx.clock.now() - DELIVERY_RETENTION_MS;
  return ctx.store.transaction((tx) => notifyRepo(tx).pruneFinished(before));
}

async function drop(ctx: DeliveryContext, row: OutboxRow, token: string): Promise<'dropped'> {
  recordNotificationDelivery(row.target, 'dropped');
  await ctx.store.transaction((tx) => notifyRepo(tx).drop(row.id, token, ctx.clock.now()));
  return 'dropped';
}

/**
 * Discord's Execute Webhook on the configured Discord (discord.com in production, the simulator in
 * tests and the demo): the host comes from config, never from the owner, so no address check is needed.
 */
async function sendToDiscord(
  ctx: DeliveryContext,
  webhook: { id: string; token: string },
  payload: NotificationPayload,
): Promise<EndpointAttempt & { retryAfterMs?: number }> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  const url = `${ctx.config.discord.baseUrl}/api/v10/webhooks/${webhook.id}/${encodeURIComponent(webhook.token)}`;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'CoinSync-Webhooks/1.0' },
      body: JSON.stringify(discordWebhookBody(payload)),
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.body?.cancel();
    const status = res.status;
    if (status >= 200 && status < 300)
      return { statusCode: status, latencyMs: latency(), error: null, permanent: false };
    // The webhook was deleted or its token reset: retrying cannot help; the owner pastes a new one.
    if (status === 401 || status === 403 || status === 404)
      return {
        statusCode: status,
        latencyMs: latency(),
        error: deliveryError('discordUnknownWebhook'),
        permanent: true,
      };
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      statusCode: status,
      latencyMs: latency(),
      error: status === 429 ? deliveryError('discordRateLimit') : deliveryError('discordStatus', { status }),
      permanent: false,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    };
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    return {
      statusCode: null,
      latencyMs: latency(),
      error: timedOut
        ? deliveryError('timeout', { seconds: DELIVERY_TIMEOUT_MS / 1000 })
        : deliveryError('discordUnreachable'),
      permanent: false,
    };
  }
}

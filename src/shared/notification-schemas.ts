import { z } from 'zod';

// Owner notifications (issue 31 item 5, decision 052): the events, the settings form and the delivery
// log, shared by the API and the web panel so both refuse the same input with the same words.

/** What an owner can subscribe to, in the order the panel lists them. */
export const NOTIFICATION_EVENTS = [
  'join.verified',
  'join.left_early',
  'campaign.completed',
  'campaign.paused',
  'campaign.resumed',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
/** The "Send test" event: never subscribed to, sent on request. */
export const TEST_EVENT = 'test' as const;
export type OutboxEventType = NotificationEvent | typeof TEST_EVENT;

/** Delivery rules: the attempt's time limit, and the waits before each retry (3 retries). */
export const DELIVERY_TIMEOUT_MS = 5_000;
export const RETRY_DELAYS_MS = [30_000, 5 * 60_000, 30 * 60_000] as const;
/** Attempts in all: the first and its retries. */
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Header of the endpoint's signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const SIGNATURE_HEADER = 'X-CoinSync-Signature';

export const NOTIFICATION_MESSAGES = {
  discordWebhookInvalid: 'Please paste a Discord webhook URL (https://discord.com/api/webhooks/…).',
  endpointInvalid: 'Please enter an https:// URL for your endpoint.',
  endpointCredentials: 'The endpoint URL must not contain a user name or password.',
  endpointNotPublic:
    'This endpoint does not lead to a public internet address (private, loopback and link-local addresses are refused).',
  endpointUnresolvable: 'This endpoint’s host name could not be resolved. Check the URL and try again.',
  noTarget: 'Add a Discord webhook or an endpoint first.',
  testPending: 'A test is already on its way. Wait for its result in the delivery log.',
  campaignMissing: 'Campaign not found',
} as const;

const DISCORD_WEBHOOK_HOSTS = new Set([
  'discord.com',
  'discordapp.com',
  'canary.discord.com',
  'ptb.discord.com',
]);
const WEBHOOK_PATH = /^\/api(?:\/v\d{1,2})?\/webhooks\/(\d{17,20})\/([A-Za-z0-9_-]{20,100})\/?$/;

/** The id and token of a Discord channel webhook URL, or null for anything else (other hosts included). */
export function parseDiscordWebhookUrl(text: string): { id: string; token: string } | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || !DISCORD_WEBHOOK_HOSTS.has(url.hostname) || url.port !== '') return null;
  if (url.username || url.password || url.search || url.hash) return null;
  const match = WEBHOOK_PATH.exec(url.pathname);
  return match ? { id: match[1]!, token: match[2]! } : null;
}

/** http: is accepted here; the server takes it only where private targets are allowed (tests, demo). */
function isEndpointUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

export const notificationSettingsSchema = z.object({
  /** A new Discord webhook URL; null removes it; absent keeps the one saved. */
  discordWebhookUrl: z
    .string()
    .trim()
    .max(300, NOTIFICATION_MESSAGES.discordWebhookInvalid)
    .refine((v) => parseDiscordWebhookUrl(v) !== null, NOTIFICATION_MESSAGES.discordWebhookInvalid)
    .nullable()
    .optional(),
  /** A new endpoint URL (a new secret comes with it); null removes it; absent keeps the one saved. */
  endpointUrl: z
    .string()
    .trim()
    .max(2000, NOTIFICATION_MESSAGES.endpointInvalid)
    .refine(isEndpointUrl, NOTIFICATION_MESSAGES.endpointInvalid)
    .refine((v) => {
      const url = new URL(v);
      return !url.username && !url.password;
    }, NOTIFICATION_MESSAGES.endpointCredentials)
    .nullable()
    .optional(),
  /** A new signing secret for the saved endpoint (the old one stops working at once). */
  rotateSecret: z.boolean().optional(),
  events: z.array(z.enum(NOTIFICATION_EVENTS)).max(NOTIFICATION_EVENTS.length),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

export interface ApiNotificationSettings {
  /** The saved webhook, masked ("discord.com/api/webhooks/1234…/…abcd"), or null. */
  discordWebhook: string | null;
  endpointUrl: string | null;
  /** The endpoint's signing secret: only in the answer that created or rotated it, never again. */
  endpointSecret?: string;
  /** The last characters of the secret, to tell which one is saved. */
  endpointSecretHint: string | null;
  events: NotificationEvent[];
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'dropped';

export interface ApiNotificationDelivery {
  id: string;
  eventId: string;
  eventType: OutboxEventType;
  target: 'discord' | 'endpoint';
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  /** The next try (pending only). */
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
}

// Why a notification delivery's last attempt failed (decision 052), as the delivery log records it: an
// English sentence, kept as it is on the wire (the API's `lastError`) and in the logs. The sentences are
// written once, here: the server builds them with `deliveryError`, and the web app reads one back with
// `parseDeliveryError` to show it in the member's language (`campaigns.notifications.log.errors.*`).
// No server code is imported here.

export const DELIVERY_ERRORS = {
  httpsOnly: 'only https:// endpoints are allowed',
  privateAddress: 'refused: the host resolves to a private, loopback or link-local address',
  unresolvable: 'the host name could not be resolved',
  redirect: 'redirects are not followed; use the final URL',
  endpointStatus: 'the endpoint answered {{status}}',
  timeout: 'no answer within {{seconds}} s',
  connectionRefused: 'connection refused',
  connectionReset: 'connection reset',
  tlsRejected: 'TLS failed: the certificate was not accepted',
  tlsExpired: 'TLS failed: the certificate has expired',
  networkCode: 'network error ({{code}})',
  network: 'network error',
  discordUnknownWebhook: 'Discord does not know this webhook any more (deleted, or its token was reset)',
  discordRateLimit: 'Discord rate limit',
  discordStatus: 'Discord answered {{status}}',
  discordUnreachable: 'Discord could not be reached',
} as const;

export type DeliveryErrorKind = keyof typeof DELIVERY_ERRORS;
export type DeliveryErrorParams = Record<string, string | number>;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The recorded sentence of a failure, with its values filled in. */
export function deliveryError(kind: DeliveryErrorKind, params: DeliveryErrorParams = {}): string {
  return DELIVERY_ERRORS[kind].replace(PLACEHOLDER, (_m, name: string) => String(params[name] ?? ''));
}

const PATTERNS = (Object.entries(DELIVERY_ERRORS) as [DeliveryErrorKind, string][]).map(([kind, text]) => {
  const names = [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  const source = text
    .split(PLACEHOLDER)
    .map((part, i) => (i % 2 === 1 ? '(.+?)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return { kind, names, pattern: new RegExp(`^${source}$`) };
});

/** The kind and values of a recorded sentence, or null for one this module did not write. */
export function parseDeliveryError(
  text: string,
): { kind: DeliveryErrorKind; params: DeliveryErrorParams } | null {
  for (const { kind, names, pattern } of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    return { kind, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return null;
}

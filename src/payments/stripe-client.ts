import Stripe from 'stripe';
import type { Config } from '../config.ts';

export type { Stripe };

/**
 * The Stripe port: the official SDK, pointed at config.stripe.apiUrl when set (the local fake in
 * tests and demos). Null when no secret key is configured: payments are then "not configured".
 * No automatic retries: every call that changes state passes its own idempotency key instead.
 */
export function createStripeClient(config: Config): Stripe | null {
  const { secretKey, apiUrl } = config.stripe;
  if (!secretKey) return null;
  const options: ConstructorParameters<typeof Stripe>[1] = { maxNetworkRetries: 0, telemetry: false, timeout: 20_000 };
  if (apiUrl) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname;
    options.port = url.port || (protocol === 'http' ? 80 : 443);
    options.protocol = protocol;
  }
  return new Stripe(secretKey, options);
}

import Stripe from 'stripe';
import type { Config } from '../config.ts';

export type { Stripe };

/**
 * The Stripe API version this code is written against. Pinned rather than taken from the SDK, so an
 * SDK upgrade cannot silently change the shapes we read; create the webhook endpoint with the same
 * version (README), since webhook payloads are rendered in the endpoint's version.
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/**
 * Retries on network errors, 409 and 5xx (the SDK's rules, with backoff). Safe because every call
 * that changes state carries an idempotency key (ours, or the SDK's own for retried POSTs).
 */
export const STRIPE_MAX_NETWORK_RETRIES = 2;

/**
 * The Stripe port: the official SDK, pointed at config.stripe.apiUrl when set (the local fake in
 * tests and demos). Null when no secret key is configured: payments are then "not configured".
 */
export function createStripeClient(config: Config): Stripe | null {
  const { secretKey, apiUrl } = config.stripe;
  if (!secretKey) return null;
  const options: ConstructorParameters<typeof Stripe>[1] = {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: STRIPE_MAX_NETWORK_RETRIES,
    telemetry: false,
    timeout: 10_000,
  };
  if (apiUrl) {
    const url = new URL(apiUrl);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    options.host = url.hostname;
    options.port = url.port || (protocol === 'http' ? 80 : 443);
    options.protocol = protocol;
  }
  return new Stripe(secretKey, options);
}

import type { Stripe } from '@stripe/stripe-js';
// The "pure" entry does not inject Stripe.js on import: it loads only when checkout asks for it.
import { loadStripe } from '@stripe/stripe-js/pure';

const cache = new Map<string, Promise<Stripe | null>>();

/** Loads Stripe.js once per publishable key. Rejects when the script cannot load (offline, blocked). */
export function getStripe(publishableKey: string): Promise<Stripe | null> {
  let promise = cache.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    // A failed load may be retried on the next visit.
    promise.catch(() => cache.delete(publishableKey));
    cache.set(publishableKey, promise);
  }
  return promise;
}

import type { Stripe } from '@stripe/stripe-js';
// The "pure" entry does not inject Stripe.js on import: it loads only when checkout asks for it.
import { loadStripe } from '@stripe/stripe-js/pure';

const cache = new Map<string, Promise<Stripe | null>>();

/**
 * Demo mode's stand-in for Stripe.js (src/sim/stripe/browser.ts), served by our own origin: loaded with a
 * script element like Stripe.js, it defines window.Stripe with the same interface.
 */
function loadStandIn(scriptUrl: string, publishableKey: string): Promise<Stripe | null> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.onload = () => {
      const factory = (window as unknown as { Stripe?: (key: string) => Stripe }).Stripe;
      if (factory) resolve(factory(publishableKey));
      else reject(new Error('Stripe.js stand-in did not define Stripe'));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error('Stripe.js stand-in could not load'));
    };
    document.head.appendChild(script);
  });
}

/**
 * Loads Stripe.js once per publishable key (from `scriptUrl` in demo mode, else js.stripe.com). Rejects
 * when the script cannot load (offline, blocked).
 */
export function getStripe(publishableKey: string, scriptUrl?: string | null): Promise<Stripe | null> {
  const cacheKey = `${scriptUrl ?? ''} ${publishableKey}`;
  let promise = cache.get(cacheKey);
  if (!promise) {
    promise = scriptUrl ? loadStandIn(scriptUrl, publishableKey) : loadStripe(publishableKey);
    // A failed load may be retried on the next visit.
    promise.catch(() => cache.delete(cacheKey));
    cache.set(cacheKey, promise);
  }
  return promise;
}

import type { BrowserContext } from 'playwright-core';
import type { FakeStripe } from '../../src/sim/stripe/index.ts';

// Stripe.js cannot load offline, so browser tests serve a tiny stand-in at js.stripe.com: enough of
// the Stripe object for @stripe/react-stripe-js (elements, a payment element that mounts and fires
// "ready", confirmPayment). confirmPayment posts to api.stripe.com, which the test answers from the
// local fake Stripe: the PaymentIntent really becomes "succeeded" there, as a real card payment would.

const STRIPE_JS_STUB = `
(function () {
  window.Stripe = function () {
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: function () {},
      createPaymentMethod: function () {},
      confirmCardPayment: function () {},
      elements: function (options) {
        var clientSecret = options && options.clientSecret;
        var created = {};
        return {
          __clientSecret: clientSecret,
          create: function (type) {
            var handlers = {};
            var el = {
              mount: function (node) {
                var target = typeof node === 'string' ? document.querySelector(node) : node;
                var box = document.createElement('div');
                box.setAttribute('data-testid', 'stripe-payment-element-stub');
                box.textContent = 'Card number 4242 4242 4242 4242  ·  12 / 34  ·  123';
                box.style.cssText = 'padding:14px 16px;border:1px solid #353b4f;border-radius:10px;background:#1d2130;color:#a4aabb;font-size:15px';
                target.appendChild(box);
                setTimeout(function () { (handlers.ready || []).forEach(function (h) { h({ elementType: type }); }); }, 30);
              },
              on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return el; },
              off: function () { return el; },
              update: function () {}, destroy: function () {}, unmount: function () {}, focus: function () {}, blur: function () {}, collapse: function () {}
            };
            created[type] = el;
            return el;
          },
          getElement: function (type) { return created[type] || null; },
          update: function () {},
          fetchUpdates: function () { return Promise.resolve({}); },
          submit: function () { return Promise.resolve({}); }
        };
      },
      confirmPayment: function (args) {
        return fetch('https://api.stripe.com/v1/test-stub/confirm', {
          method: 'POST',
          body: JSON.stringify({ clientSecret: args.elements.__clientSecret })
        }).then(function (r) { return r.json(); });
      }
    };
  };
})();
`;

export interface StripeStub {
  /**
   * What the next confirmPayment does: a card that pays, a declined card, a delayed method (bank debit:
   * processing), or a 3-D Secure challenge the customer did not finish (requires_action).
   */
  outcome: 'succeed' | 'decline' | 'processing' | 'requires_action';
  confirmed: string[];
}

export async function installStripeStub(context: BrowserContext, fake: FakeStripe): Promise<StripeStub> {
  const stub: StripeStub = { outcome: 'succeed', confirmed: [] };
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS_STUB }),
  );
  await context.route('https://api.stripe.com/**', async (route) => {
    const { clientSecret } = JSON.parse(route.request().postData() ?? '{}') as { clientSecret?: string };
    const id = (clientSecret ?? '').split('_secret_')[0] ?? '';
    const cors = { 'access-control-allow-origin': '*' };
    if (stub.outcome === 'decline') {
      await route.fulfill({
        status: 200,
        headers: cors,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' },
        }),
      });
      return;
    }
    const intent =
      stub.outcome === 'processing'
        ? fake.process(id)
        : stub.outcome === 'requires_action'
          ? fake.requireAction(id)
          : fake.succeed(id);
    stub.confirmed.push(id);
    await route.fulfill({
      status: 200,
      headers: cors,
      contentType: 'application/json',
      body: JSON.stringify({ paymentIntent: intent }),
    });
  });
  return stub;
}

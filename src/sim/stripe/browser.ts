// The browser's side of the fake Stripe: a stand-in for Stripe.js (https://js.stripe.com/v3 cannot load
// offline) and the bank's 3-D Secure page. The stand-in offers what @stripe/react-stripe-js and our
// checkout use, the interface the browser tests' stub has (tests/e2e/payments-stripe-stub.ts): Stripe(pk),
// elements({ clientSecret }), a payment element that mounts, fires "ready" and holds a card form, and
// confirmPayment, which confirms the PaymentIntent at the fake's API with the publishable key and the
// client secret as Stripe.js does. Test card numbers choose the outcome, as in Stripe's test mode.

/** Stripe's test card numbers the stand-in knows, and the test payment method each one confirms with. */
export const TEST_CARDS: readonly { number: string; paymentMethod: string; label: string }[] = [
  { number: '4242424242424242', paymentMethod: 'pm_card_visa', label: 'pays' },
  { number: '4000000000000002', paymentMethod: 'pm_card_chargeDeclined', label: 'is declined' },
  {
    number: '4000000000009995',
    paymentMethod: 'pm_card_visa_chargeDeclinedInsufficientFunds',
    label: 'has insufficient funds',
  },
  {
    number: '4000002760003184',
    paymentMethod: 'pm_card_authenticationRequired',
    label: 'asks for 3-D Secure',
  },
];

/** The stand-in's script; `base` is where the page reaches the fake (e.g. '/stripe-sim'). */
export function stripeJsStandIn(base: string): string {
  const cards = TEST_CARDS.filter((c) => c.number !== '4000000000009995');
  return `(function () {
  'use strict';
  var BASE = ${JSON.stringify(base)};
  var CARDS = ${JSON.stringify(TEST_CARDS)};
  var SHOWN = ${JSON.stringify(cards)};
  function spaced(n) { return n.replace(/(\\d{4})(?=\\d)/g, '$1 '); }
  function css(el, text) { el.style.cssText = text; return el; }
  function field(labelText, input) {
    var label = css(document.createElement('label'), 'display:flex;flex-direction:column;gap:6px;font-size:14px;color:#b5bac1;flex:1;min-width:0');
    label.appendChild(document.createTextNode(labelText));
    css(input, 'box-sizing:border-box;width:100%;padding:12px 14px;border:1px solid #353b4f;border-radius:10px;background:#1d2130;color:#f2f3f5;font:inherit;font-size:16px;min-width:0');
    label.appendChild(input);
    return label;
  }
  function input(name, value, placeholder, autocomplete) {
    var el = document.createElement('input');
    el.name = name; el.value = value; el.placeholder = placeholder; el.autocomplete = autocomplete;
    el.inputMode = 'numeric';
    return el;
  }
  function paymentElement(state) {
    var handlers = {};
    function emit(event, payload) { (handlers[event] || []).forEach(function (h) { h(payload); }); }
    var el = {
      mount: function (node) {
        var target = typeof node === 'string' ? document.querySelector(node) : node;
        var box = css(document.createElement('div'), 'display:flex;flex-direction:column;gap:14px;font-family:inherit');
        box.setAttribute('data-testid', 'stripe-payment-element-demo');
        var number = input('cardnumber', '', '1234 1234 1234 1234', 'cc-number');
        number.setAttribute('aria-describedby', 'demo-stripe-cards');
        number.addEventListener('input', function () {
          emit('change', { elementType: 'payment', empty: !number.value, complete: number.value.replace(/\\D/g, '').length === 16 });
        });
        state.number = number;
        box.appendChild(field('Card number', number));
        var row = css(document.createElement('div'), 'display:flex;gap:12px');
        row.appendChild(field('Expiration', input('exp-date', '12 / 34', 'MM / YY', 'cc-exp')));
        row.appendChild(field('Security code', input('cvc', '123', 'CVC', 'cc-csc')));
        box.appendChild(row);
        var hint = css(document.createElement('div'), 'border:1px dashed #4e5d94;border-radius:10px;padding:10px 12px;font-size:13px;color:#b5bac1;line-height:1.5');
        hint.id = 'demo-stripe-cards';
        var title = css(document.createElement('div'), 'font-weight:600;color:#f2f3f5;margin-bottom:4px');
        title.textContent = 'Demo mode: no real card is charged. Test cards:';
        hint.appendChild(title);
        SHOWN.forEach(function (card) {
          var line = css(document.createElement('button'), 'display:block;width:100%;text-align:left;background:none;border:0;padding:6px 0;color:inherit;font:inherit;cursor:pointer;min-height:32px');
          line.type = 'button';
          line.setAttribute('aria-label', 'Use test card ' + spaced(card.number) + ', which ' + card.label);
          line.innerHTML = '<span style="font-family:ui-monospace,monospace;color:#f2f3f5">' + spaced(card.number) + '</span> ' + card.label;
          line.addEventListener('click', function () {
            number.value = spaced(card.number);
            number.dispatchEvent(new Event('input'));
          });
          hint.appendChild(line);
        });
        box.appendChild(hint);
        target.appendChild(box);
        setTimeout(function () { emit('ready', { elementType: 'payment' }); }, 0);
      },
      on: function (event, handler) { (handlers[event] = handlers[event] || []).push(handler); return el; },
      off: function () { return el; },
      update: function () {}, destroy: function () {}, unmount: function () {}, focus: function () {},
      blur: function () {}, collapse: function () {}, clear: function () {}
    };
    return el;
  }
  function form(fields) {
    return Object.keys(fields).filter(function (k) { return fields[k] != null; }).map(function (k) {
      return encodeURIComponent(k) + '=' + encodeURIComponent(fields[k]);
    }).join('&');
  }
  window.Stripe = function (publishableKey) {
    return {
      _registerWrapper: function () {},
      registerAppInfo: function () {},
      createToken: function () { return Promise.resolve({}); },
      createPaymentMethod: function () { return Promise.resolve({}); },
      confirmCardPayment: function () { return Promise.resolve({}); },
      retrievePaymentIntent: function (clientSecret) {
        var id = clientSecret.split('_secret_')[0];
        return fetch(BASE + '/v1/payment_intents/' + encodeURIComponent(id) + '?client_secret=' + encodeURIComponent(clientSecret), {
          headers: { authorization: 'Bearer ' + publishableKey }
        }).then(function (r) { return r.json(); }).then(function (body) {
          return body.error ? { error: body.error } : { paymentIntent: body };
        });
      },
      elements: function (options) {
        var state = { clientSecret: options && options.clientSecret, number: null };
        var created = {};
        return {
          __state: state,
          create: function (type) { created[type] = paymentElement(state); return created[type]; },
          getElement: function (type) { return created[type] || null; },
          update: function () {},
          fetchUpdates: function () { return Promise.resolve({}); },
          submit: function () { return Promise.resolve({}); }
        };
      },
      confirmPayment: function (args) {
        var state = args.elements.__state;
        var digits = state.number ? state.number.value.replace(/\\D/g, '') : '';
        var card = CARDS.filter(function (c) { return c.number === digits; })[0];
        if (!card) {
          return Promise.resolve({ error: { type: 'validation_error', code: 'invalid_number',
            message: 'Your card number is invalid. In the demo, use a test card: 4242 4242 4242 4242.' } });
        }
        var clientSecret = state.clientSecret;
        var id = clientSecret.split('_secret_')[0];
        var returnUrl = args.confirmParams && args.confirmParams.return_url;
        return fetch(BASE + '/v1/payment_intents/' + encodeURIComponent(id) + '/confirm', {
          method: 'POST',
          headers: { authorization: 'Bearer ' + publishableKey, 'content-type': 'application/x-www-form-urlencoded' },
          body: form({ client_secret: clientSecret, payment_method: card.paymentMethod, return_url: returnUrl })
        }).then(function (r) { return r.json(); }).then(function (body) {
          if (body.error) return { error: body.error };
          var next = body.next_action;
          if (body.status === 'requires_action' && next && next.type === 'redirect_to_url') {
            // Like Stripe.js: the page leaves for the bank's challenge and this promise never settles.
            window.location.assign(next.redirect_to_url.url);
            return new Promise(function () {});
          }
          return { paymentIntent: body };
        });
      }
    };
  };
})();
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The bank's 3-D Secure challenge, as Stripe's test mode shows it: complete or fail. */
export function threeDSecurePage(
  intent: { id: string; amount: number; currency: string; clientSecret: string; returnUrl: string } | null,
): string {
  const body = intent
    ? `<p class="muted">Demo bank · 3-D Secure test page</p>
  <h1>Confirm your payment</h1>
  <p>Your bank asks you to confirm a payment of <strong>${escapeHtml(
    (intent.amount / 100).toFixed(2),
  )} ${escapeHtml(intent.currency.toUpperCase())}</strong>. No real card is charged: this page stands in for your bank's check.</p>
  <form method="post">
    <input type="hidden" name="client_secret" value="${escapeHtml(intent.clientSecret)}">
    <input type="hidden" name="return_url" value="${escapeHtml(intent.returnUrl)}">
    <button type="submit" name="outcome" value="complete" class="ok">Complete authentication</button>
    <button type="submit" name="outcome" value="fail" class="ko">Fail authentication</button>
  </form>`
    : '<h1>No such payment</h1><p>This authentication link is not valid.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure (demo)</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#1e1f22;color:#f2f3f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
main{max-width:420px;margin:24px;padding:28px;border:1px solid #353b4f;border-radius:16px;background:#2b2d31}
h1{font-size:22px;margin:4px 0 12px}.muted{color:#b5bac1;font-size:14px;margin:0}p{line-height:1.5}
form{display:flex;flex-direction:column;gap:12px;margin-top:20px}
button{min-height:48px;border-radius:12px;border:0;font:inherit;font-weight:600;cursor:pointer}
.ok{background:#5865f2;color:#fff}.ko{background:transparent;color:#f2f3f5;border:1px solid #4e5058}
</style></head>
<body><main>${body}</main></body></html>`;
}

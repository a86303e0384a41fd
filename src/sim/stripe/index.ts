import http from 'node:http';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { parseForm } from './form.ts';
import { stripeJsStandIn, threeDSecurePage } from './browser.ts';
import { errorMessage } from '../../ops/error-text.ts';

// A local stand-in for the slice of Stripe's HTTP API the product uses (PaymentIntents), plus
// control helpers that move an intent through its life and deliver signed webhook events the way
// Stripe does. Tests and the demo point the real SDK at it (STRIPE_API_URL); nothing leaves the machine.

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'succeeded'
    | 'canceled';
  client_secret: string;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  latest_charge: string | null;
  created: number;
  livemode: false;
  last_payment_error: { message: string; code: string; type: string } | null;
  next_action:
    | { type: 'use_stripe_sdk'; use_stripe_sdk: { type: string } }
    | { type: 'redirect_to_url'; redirect_to_url: { url: string; return_url: string } }
    | null;
  canceled_at: number | null;
}

export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  refunded: boolean;
  disputed: boolean;
  status: 'succeeded';
  metadata: Record<string, string>;
  created: number;
  refunds: { object: 'list'; data: FakeRefund[] };
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  failure_reason: string | null;
  created: number;
}

export interface FakeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  reason: string;
  status: 'needs_response' | 'under_review' | 'won' | 'lost';
  created: number;
}

export interface DeliverOptions {
  /** Sign with this secret instead of the configured one ("wrong secret" tests). */
  secret?: string;
  /** Seconds added to the signing timestamp (negative = an old, replayed delivery). */
  timestampOffsetSeconds?: number;
  /** Changes the body after signing ("altered body" tests). */
  alterBody?: (body: string) => string;
  /** Sends no Stripe-Signature header at all. */
  omitSignature?: boolean;
}

export interface DeliveryResult {
  status: number;
  body: unknown;
}

export interface FakeStripe {
  url: string;
  /**
   * The fake as a request listener, for mounting it under a path of another server (demo mode:
   * src/demo/stripe.ts). The same state answers there and on `url`.
   */
  handler: http.RequestListener;
  intents: Map<string, FakePaymentIntent>;
  charges: Map<string, FakeCharge>;
  disputes: Map<string, FakeDispute>;
  /** Every API request seen, for assertions (method, path, idempotency key, Stripe-Version, status). */
  requests: {
    method: string;
    path: string;
    idempotencyKey: string | undefined;
    stripeVersion: string | undefined;
    status?: number;
  }[];
  /** Where webhooks go and which clock signs them; settable after the app started on a random port. */
  connect(options: { webhookUrl?: string; webhookSecret?: string; now?: () => number }): void;
  /** Marks an intent paid (as a successful confirmation would) and creates its charge. */
  succeed(paymentIntentId: string): FakePaymentIntent;
  /** A delayed payment method (bank debit): confirmed, the bank has not answered yet. */
  process(paymentIntentId: string): FakePaymentIntent;
  /** The bank wants the customer to authenticate (3-D Secure). */
  requireAction(paymentIntentId: string): FakePaymentIntent;
  /** The payment failed (e.g. a bank debit bounced): back to requires_payment_method with the error. */
  fail(paymentIntentId: string, message?: string): FakePaymentIntent;
  cancel(paymentIntentId: string): FakePaymentIntent;
  /** Refunds part (or all, by default) of the intent's charge; returns the updated charge (newest refund first). */
  refund(paymentIntentId: string, amount?: number): FakeCharge;
  /** A refund the card network could not deliver: status failed, the amount leaves amount_refunded. */
  failRefund(refundId: string): FakeRefund;
  /** Opens a dispute on the intent's charge (the whole amount unless given). */
  dispute(paymentIntentId: string, amount?: number): FakeDispute;
  /** Closes a dispute as won or lost. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): FakeDispute;
  /**
   * Holds every POST /v1/payment_intents until the returned function is called, so a test can have two
   * requests with one idempotency key in flight together (the second gets Stripe's 409 key_in_use).
   */
  holdCreates(): () => void;
  /** Holds every GET /v1/payment_intents/:id likewise (concurrent syncs of one intent). */
  holdRetrieves(): () => void;
  /** Builds an event (`evt_...`) around an object. */
  event(type: string, object: object): Stripe.Event;
  /** POSTs a signed event to the webhook URL, like Stripe's delivery. */
  deliver(event: Stripe.Event, options?: DeliverOptions): Promise<DeliveryResult>;
  close(): Promise<void>;
}

export interface StartFakeStripeOptions {
  webhookUrl?: string;
  webhookSecret?: string;
  port?: number;
  /** Clock used for `created` fields and webhook signature timestamps (ms). */
  now?: () => number;
  /**
   * Seconds added to every webhook signature's timestamp only: a Stripe whose clock disagrees with the
   * product's (the fault drill's clock jump; Stripe's tolerance is 5 minutes). Default 0.
   */
  signingSkewSeconds?: number;
  /**
   * Deliver webhook events on their own, as Stripe does, when a confirmation through the API changes
   * an intent (payment_intent.succeeded / processing / requires_action / payment_failed), retrying a
   * delivery that is not answered 2xx a few times with backoff. Off by default: most tests deliver
   * events themselves to control their order. The standalone process (scripts/run-fake-stripe.ts) turns it on.
   */
  autoWebhooks?: boolean;
  /**
   * Where a browser reaches the fake's own pages (the Stripe.js stand-in, the 3-D Secure page): a URL or
   * a path on the page's origin when the fake is mounted there (demo mode: '/stripe-sim'). Default: `url`.
   */
  browserUrl?: string;
  /**
   * Demo mode: intents, charges and disputes are loaded from and saved to this JSON file (after each
   * request that changes them), so payments the product recorded still exist at the fake after a restart.
   */
  statePath?: string;
}

const AUTO_EVENT: Partial<Record<FakePaymentIntent['status'], string>> = {
  succeeded: 'payment_intent.succeeded',
  processing: 'payment_intent.processing',
  requires_action: 'payment_intent.requires_action',
  requires_payment_method: 'payment_intent.payment_failed',
};

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string; payment_intent?: unknown },
  ) {
    super(body.message);
  }
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const TEST_CARD_DECLINES: Record<string, string> = {
  pm_card_chargeDeclined: 'Your card was declined.',
  pm_card_visa_chargeDeclinedInsufficientFunds: 'Your card has insufficient funds.',
};

export async function startFakeStripe(options: StartFakeStripeOptions = {}): Promise<FakeStripe> {
  let webhookUrl = options.webhookUrl;
  let webhookSecret = options.webhookSecret;
  let now = options.now ?? (() => Date.now());
  const signingSkewSeconds = options.signingSkewSeconds ?? 0;
  let listening = '';
  const browserUrl = () => (options.browserUrl ?? listening).replace(/\/$/, '');
  const seconds = () => Math.floor(now() / 1000);

  const intents = new Map<string, FakePaymentIntent>();
  const charges = new Map<string, FakeCharge>();
  const disputes = new Map<string, FakeDispute>();
  const statePath = options.statePath;
  if (statePath && existsSync(statePath)) {
    const saved = JSON.parse(readFileSync(statePath, 'utf8')) as {
      intents?: FakePaymentIntent[];
      charges?: FakeCharge[];
      disputes?: FakeDispute[];
    };
    for (const intent of saved.intents ?? []) intents.set(intent.id, intent);
    for (const charge of saved.charges ?? []) charges.set(charge.id, charge);
    for (const dispute of saved.disputes ?? []) disputes.set(dispute.id, dispute);
  }
  /** Writes the state file (whole, through a rename, so a crash leaves the old or the new one). */
  function save(): void {
    if (!statePath) return;
    const body = JSON.stringify({
      intents: [...intents.values()],
      charges: [...charges.values()],
      disputes: [...disputes.values()],
    });
    writeFileSync(`${statePath}.tmp`, body);
    renameSync(`${statePath}.tmp`, statePath);
  }
  const inFlight = new Set<string>();
  let createHold: Promise<void> | null = null;
  let retrieveHold: Promise<void> | null = null;
  const idempotent = new Map<string, { params: string; status: number; body: unknown }>();
  const requests: FakeStripe['requests'] = [];
  const seen = new WeakMap<http.IncomingMessage, FakeStripe['requests'][number]>();

  function getIntent(id: string): FakePaymentIntent {
    const intent = intents.get(id);
    if (!intent) {
      throw new StripeApiError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'intent',
        message: `No such payment_intent: '${id}'`,
      });
    }
    return intent;
  }

  function createIntent(params: Record<string, unknown>): FakePaymentIntent {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'amount',
        message: 'Amount must be at least $0.50 usd',
      });
    }
    const currency = typeof params.currency === 'string' ? params.currency.toLowerCase() : '';
    if (!currency)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'currency',
        message: 'Missing required param: currency.',
      });
    const metadata: Record<string, string> = {};
    if (params.metadata && typeof params.metadata === 'object') {
      for (const [k, v] of Object.entries(params.metadata)) metadata[k] = String(v);
    }
    const apm = params.automatic_payment_methods as { enabled?: string } | undefined;
    const id = newId('pi');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`,
      metadata,
      automatic_payment_methods: apm ? { enabled: apm.enabled === 'true' } : null,
      latest_charge: null,
      created: seconds(),
      livemode: false,
      last_payment_error: null,
      next_action: null,
      canceled_at: null,
    };
    intents.set(id, intent);
    return intent;
  }

  function succeed(id: string): FakePaymentIntent {
    const intent = getIntent(id);
    if (intent.status === 'succeeded') return intent;
    const charge: FakeCharge = {
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
      payment_intent: intent.id,
      refunded: false,
      disputed: false,
      status: 'succeeded',
      metadata: { ...intent.metadata },
      created: seconds(),
      refunds: { object: 'list', data: [] },
    };
    charges.set(charge.id, charge);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.last_payment_error = null;
    intent.next_action = null;
    return intent;
  }

  function settable(id: string): FakePaymentIntent {
    const intent = getIntent(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `This PaymentIntent's status is ${intent.status}.`,
      });
    }
    return intent;
  }

  function process(id: string): FakePaymentIntent {
    const intent = settable(id);
    intent.status = 'processing';
    intent.next_action = null;
    return intent;
  }

  function requireAction(id: string): FakePaymentIntent {
    const intent = settable(id);
    intent.status = 'requires_action';
    intent.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
    return intent;
  }

  function fail(id: string, message = 'The payment failed.'): FakePaymentIntent {
    const intent = settable(id);
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = {
      type: 'card_error',
      code: 'payment_intent_payment_attempt_failed',
      message,
    };
    return intent;
  }

  function cancel(id: string): FakePaymentIntent {
    const intent = settable(id);
    intent.status = 'canceled';
    intent.next_action = null;
    intent.canceled_at = seconds();
    return intent;
  }

  function chargeOf(paymentIntentId: string): FakeCharge {
    const intent = getIntent(paymentIntentId);
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (!charge) throw new Error(`payment intent ${paymentIntentId} has no charge yet (call succeed first)`);
    return charge;
  }

  function confirm(id: string, params: Record<string, unknown>): FakePaymentIntent {
    const intent = getIntent(id);
    if (intent.status === 'succeeded') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.',
      });
    }
    const paymentMethod = typeof params.payment_method === 'string' ? params.payment_method : 'pm_card_visa';
    const decline = TEST_CARD_DECLINES[paymentMethod];
    if (decline) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', code: 'card_declined', message: decline };
      throw new StripeApiError(402, {
        type: 'card_error',
        code: 'card_declined',
        message: decline,
        payment_intent: { ...intent },
      });
    }
    if (paymentMethod === 'pm_card_authenticationRequired') {
      const returnUrl = typeof params.return_url === 'string' ? params.return_url : '';
      if (!returnUrl) return requireAction(id);
      // With a return_url the bank's challenge is a page of its own: Stripe answers redirect_to_url, the
      // browser goes there and comes back to return_url with the intent's id and redirect_status.
      const intent = settable(id);
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'redirect_to_url',
        redirect_to_url: {
          url: `${browserUrl()}/authenticate/${encodeURIComponent(id)}?client_secret=${encodeURIComponent(intent.client_secret)}&return_url=${encodeURIComponent(returnUrl)}`,
          return_url: returnUrl,
        },
      };
      return intent;
    }
    if (paymentMethod === 'pm_usBankAccount_success') return process(id);
    return succeed(id);
  }

  async function route(
    req: http.IncomingMessage,
    raw: string,
  ): Promise<{ status: number; body: unknown; replayed?: boolean }> {
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const auth = req.headers.authorization ?? '';
    // GET parameters (lists) come in the query string, bracketed like form bodies (created[gte]=...).
    const params = req.method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(raw);
    if (/^Bearer pk_(test|live)_\S+$/.test(auth)) {
      // A browser (Stripe.js) holds only the publishable key: like Stripe, it may read and confirm one
      // PaymentIntent when it also shows that intent's client secret, and nothing else.
      const match = /^\/v1\/payment_intents\/([^/]+)(\/confirm)?$/.exec(url.pathname);
      const secret = params.client_secret ?? url.searchParams.get('client_secret');
      const intent = match?.[1] ? intents.get(match[1]) : undefined;
      if (!intent || typeof secret !== 'string' || secret !== intent.client_secret) {
        throw new StripeApiError(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such payment_intent: '${match?.[1] ?? ''}'`,
        });
      }
      delete params.client_secret;
    } else if (!/^Bearer sk_(test|live)_\S+$/.test(auth)) {
      throw new StripeApiError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
    }
    const key =
      typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
    const version = req.headers['stripe-version'];
    const record = {
      method: req.method ?? 'GET',
      path: url.pathname,
      idempotencyKey: key,
      stripeVersion: typeof version === 'string' ? version : undefined,
    };
    requests.push(record);
    seen.set(req, record);

    if (req.method === 'POST' && key) {
      // Like Stripe: a second request with a key whose first request is still running gets a 409.
      if (inFlight.has(key)) {
        throw new StripeApiError(409, {
          type: 'invalid_request_error',
          code: 'idempotency_key_in_use',
          message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
        });
      }
      const previous = idempotent.get(key);
      const fingerprint = `${url.pathname}?${raw}`;
      if (previous) {
        if (previous.params !== fingerprint) {
          throw new StripeApiError(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
          });
        }
        return { status: previous.status, body: previous.body, replayed: true };
      }
      inFlight.add(key);
      try {
        if (createHold && url.pathname === '/v1/payment_intents') await createHold;
        const result = handle(req.method, url.pathname, params);
        idempotent.set(key, { params: fingerprint, status: result.status, body: result.body });
        return result;
      } finally {
        inFlight.delete(key);
      }
    }
    if (createHold && req.method === 'POST' && url.pathname === '/v1/payment_intents') await createHold;
    if (retrieveHold && req.method === 'GET' && /^\/v1\/payment_intents\/[^/]+$/.test(url.pathname))
      await retrieveHold;
    return handle(req.method ?? 'GET', url.pathname, params);
  }

  /**
   * A Stripe list: newest first (by `created`, then the newest made), `created[gt|gte|lt|lte]`,
   * `limit` (1–100, default 10), `starting_after` / `ending_before` (an id of the list), `has_more`.
   */
  function list<T extends { id: string; created: number }>(
    pathname: string,
    all: T[],
    params: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const limit = params.limit === undefined ? 10 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        param: 'limit',
        message: 'Invalid integer: limit must be between 1 and 100.',
      });
    const created = params.created;
    const bound = (op: string): number | null => {
      if (typeof created === 'object' && created !== null) {
        const v = (created as Record<string, unknown>)[op];
        return v === undefined ? null : Number(v);
      }
      return op === 'eq' && typeof created === 'string' ? Number(created) : null;
    };
    const [gt, gte, lt, lte, eq] = [bound('gt'), bound('gte'), bound('lt'), bound('lte'), bound('eq')];
    // Insertion order is creation order: reversed, newest first (stable for equal `created`).
    let ordered = all
      .map((item, i) => ({ item, i }))
      .sort((a, b) => b.item.created - a.item.created || b.i - a.i)
      .map((x) => x.item)
      .filter(
        (o) =>
          (gt === null || o.created > gt) &&
          (gte === null || o.created >= gte) &&
          (lt === null || o.created < lt) &&
          (lte === null || o.created <= lte) &&
          (eq === null || o.created === eq),
      );
    const after = typeof params.starting_after === 'string' ? params.starting_after : undefined;
    const before = typeof params.ending_before === 'string' ? params.ending_before : undefined;
    for (const [cursor, param] of [
      [after, 'starting_after'],
      [before, 'ending_before'],
    ] as const) {
      if (cursor !== undefined && !all.some((o) => o.id === cursor))
        throw new StripeApiError(400, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          param,
          message: `No such object: '${cursor}'`,
        });
    }
    let hasMore: boolean;
    if (before !== undefined) {
      const at = ordered.findIndex((o) => o.id === before);
      const head = at < 0 ? [] : ordered.slice(0, at);
      ordered = head.slice(Math.max(0, head.length - limit));
      hasMore = head.length > limit;
    } else {
      if (after !== undefined) {
        const at = ordered.findIndex((o) => o.id === after);
        ordered = at < 0 ? [] : ordered.slice(at + 1);
      }
      hasMore = ordered.length > limit;
      ordered = ordered.slice(0, limit);
    }
    return {
      status: 200,
      body: {
        object: 'list',
        data: ordered.map((o) => structuredClone(o)),
        has_more: hasMore,
        url: pathname,
      },
    };
  }

  function handle(
    method: string,
    pathname: string,
    params: Record<string, unknown>,
  ): { status: number; body: unknown } {
    if (method === 'POST' && pathname === '/v1/payment_intents')
      return { status: 200, body: { ...createIntent(params) } };
    if (method === 'GET' && pathname === '/v1/payment_intents')
      return list(pathname, [...intents.values()], params);
    if (method === 'GET' && pathname === '/v1/disputes')
      return list(pathname, [...disputes.values()], params);
    if (method === 'GET' && pathname === '/v1/refunds') {
      const refunds = [...charges.values()].flatMap((c) => [...c.refunds.data].reverse());
      return list(pathname, refunds, params);
    }
    const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(pathname);
    if (one?.[1] && method === 'GET') return { status: 200, body: { ...getIntent(one[1]) } };
    const confirmMatch = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(pathname);
    if (confirmMatch?.[1] && method === 'POST') {
      const id = confirmMatch[1];
      try {
        const intent = confirm(id, params);
        autoDeliver(intent);
        return { status: 200, body: { ...intent } };
      } catch (err) {
        const intent = intents.get(id);
        if (intent && err instanceof StripeApiError && err.status === 402) autoDeliver(intent);
        throw err;
      }
    }
    const chargeMatch = /^\/v1\/charges\/([^/]+)$/.exec(pathname);
    if (chargeMatch?.[1] && method === 'GET') {
      const charge = charges.get(chargeMatch[1]);
      if (charge) return { status: 200, body: { ...charge } };
    }
    throw new StripeApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${pathname}).`,
    });
  }

  // Set once the public object exists (deliver and event live on it).
  let fake: FakeStripe | null = null;
  const autoDeliveries = new Set<Promise<void>>();
  function autoDeliver(intent: FakePaymentIntent): void {
    const type = AUTO_EVENT[intent.status];
    if (!options.autoWebhooks || !type || !fake || !webhookUrl) return;
    const event = fake.event(type, intent);
    const target = fake;
    const run = (async () => {
      for (let attempt = 0; attempt < 4; attempt++) {
        try {
          if ((await target.deliver(event)).status < 300) return;
        } catch {
          /* endpoint down: retried below, as Stripe does */
        }
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    })();
    autoDeliveries.add(run);
    void run.finally(() => autoDeliveries.delete(run));
  }

  /** Completes or fails a 3-D Secure challenge from its page; answers where the browser goes next. */
  function authenticate(id: string, form: Record<string, unknown>): string {
    const intent = getIntent(id);
    const returnUrl = typeof form.return_url === 'string' ? form.return_url : '';
    if (form.client_secret !== intent.client_secret || !/^https?:\/\//.test(returnUrl)) {
      throw new StripeApiError(400, { type: 'invalid_request_error', message: 'Invalid authentication.' });
    }
    if (intent.status === 'requires_action') {
      if (form.outcome === 'complete') succeed(id);
      else
        fail(
          id,
          'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        );
      autoDeliver(intent);
    }
    const back = new URL(returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', intent.client_secret);
    back.searchParams.set('redirect_status', intent.status === 'succeeded' ? 'succeeded' : 'failed');
    return back.toString();
  }

  const handler: http.RequestListener = (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://fake-stripe').pathname;
    // The browser's side: Stripe.js's stand-in and the bank's 3-D Secure page (./browser.ts).
    if (req.method === 'GET' && pathname === '/stripe.js') {
      res.writeHead(200, {
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'no-cache',
      });
      res.end(stripeJsStandIn(browserUrl()));
      return;
    }
    const challenge = /^\/authenticate\/([^/]+)$/.exec(pathname);
    if (challenge?.[1]) {
      const id = decodeURIComponent(challenge[1]);
      if (req.method === 'GET') {
        const query = new URL(req.url ?? '/', 'http://fake-stripe').searchParams;
        const intent = intents.get(id);
        res.writeHead(intent ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          threeDSecurePage(
            intent
              ? {
                  id,
                  amount: intent.amount,
                  currency: intent.currency,
                  clientSecret: query.get('client_secret') ?? '',
                  returnUrl: query.get('return_url') ?? '',
                }
              : null,
          ),
        );
        return;
      }
      if (req.method === 'POST') {
        readBody(req)
          .then((raw) => authenticate(id, parseForm(raw)))
          .then(
            (location) => {
              save();
              res.writeHead(303, { location });
              res.end();
            },
            (err: unknown) => {
              res.writeHead(err instanceof StripeApiError ? err.status : 500, {
                'content-type': 'text/plain',
              });
              res.end(errorMessage(err));
            },
          );
        return;
      }
    }
    readBody(req)
      .then((raw) => route(req, raw))
      .then(
        ({ status, body, replayed }) => {
          if (req.method === 'POST') save();
          const record = seen.get(req);
          if (record) record.status = status;
          res.writeHead(status, {
            'content-type': 'application/json',
            'request-id': newId('req'),
            ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
          });
          res.end(JSON.stringify(body));
        },
        (err: unknown) => {
          const status = err instanceof StripeApiError ? err.status : 500;
          const error =
            err instanceof StripeApiError ? err.body : { type: 'api_error', message: String(err) };
          // A declined confirmation changes the intent too (requires_payment_method with the error).
          if (req.method === 'POST' && status === 402) save();
          const record = seen.get(req);
          if (record) record.status = status;
          res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
          res.end(JSON.stringify({ error }));
        },
      );
  };
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  listening = url;

  fake = {
    url,
    handler,
    intents,
    charges,
    requests,
    connect(next) {
      if (next.webhookUrl !== undefined) webhookUrl = next.webhookUrl;
      if (next.webhookSecret !== undefined) webhookSecret = next.webhookSecret;
      if (next.now) now = next.now;
    },
    disputes,
    succeed,
    process,
    requireAction,
    fail,
    cancel,
    refund(paymentIntentId, amount) {
      const charge = chargeOf(paymentIntentId);
      const refundAmount = Math.min(
        amount ?? charge.amount - charge.amount_refunded,
        charge.amount - charge.amount_refunded,
      );
      const refund: FakeRefund = {
        id: newId('re'),
        object: 'refund',
        amount: refundAmount,
        charge: charge.id,
        payment_intent: paymentIntentId,
        currency: charge.currency,
        status: 'succeeded',
        failure_reason: null,
        created: seconds(),
      };
      charge.refunds.data.unshift(refund);
      charge.amount_refunded += refundAmount;
      charge.refunded = charge.amount_refunded >= charge.amount;
      return structuredClone(charge);
    },
    failRefund(refundId) {
      for (const charge of charges.values()) {
        const refund = charge.refunds.data.find((r) => r.id === refundId);
        if (!refund) continue;
        if (refund.status !== 'failed') {
          refund.status = 'failed';
          refund.failure_reason = 'expired_or_canceled_card';
          charge.amount_refunded -= refund.amount;
          charge.refunded = false;
        }
        return structuredClone(refund);
      }
      throw new Error(`fake Stripe: no refund ${refundId}`);
    },
    dispute(paymentIntentId, amount) {
      const charge = chargeOf(paymentIntentId);
      charge.disputed = true;
      const dispute: FakeDispute = {
        id: newId('dp'),
        object: 'dispute',
        amount: amount ?? charge.amount,
        charge: charge.id,
        payment_intent: paymentIntentId,
        currency: charge.currency,
        reason: 'fraudulent',
        status: 'needs_response',
        created: seconds(),
      };
      disputes.set(dispute.id, dispute);
      return structuredClone(dispute);
    },
    closeDispute(disputeId, outcome) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`fake Stripe: no dispute ${disputeId}`);
      dispute.status = outcome;
      return structuredClone(dispute);
    },
    holdCreates() {
      let release = () => {};
      createHold = new Promise<void>((resolve) => {
        release = () => {
          createHold = null;
          resolve();
        };
      });
      return release;
    },
    holdRetrieves() {
      let release = () => {};
      retrieveHold = new Promise<void>((resolve) => {
        release = () => {
          retrieveHold = null;
          resolve();
        };
      });
      return release;
    },
    event(type, object) {
      return {
        id: newId('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: seconds(),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: structuredClone(object) },
      } as unknown as Stripe.Event;
    },
    async deliver(event, deliverOptions = {}) {
      if (!webhookUrl) throw new Error('fake Stripe: no webhookUrl (call connect first)');
      const secret = deliverOptions.secret ?? webhookSecret;
      if (!secret) throw new Error('fake Stripe: no webhookSecret');
      const payload = JSON.stringify(event, null, 2);
      const header = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret,
        timestamp: seconds() + signingSkewSeconds + (deliverOptions.timestampOffsetSeconds ?? 0),
      });
      const body = deliverOptions.alterBody ? deliverOptions.alterBody(payload) : payload;
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          ...(deliverOptions.omitSignature ? {} : { 'stripe-signature': header }),
        },
        body,
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: parsed };
    },
    async close() {
      await Promise.allSettled([...autoDeliveries]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Store } from 'express-session';
import type { SessionCheck } from '../auth/session-policy.ts';
import type { PlainRequestState } from './request-context.ts';

// One request pipeline (decision 046). The API is an ordered list of guards (`apiGuards` in
// src/app.ts: the session, the same-origin check, the JSON body, the write limits, the address
// recording, the person's Discord deadline, and whatever is added next); the API router runs their
// middleware in that order in front of every route. The signed-in fast path (decisions 033, 035)
// serves the hottest routes on node's own request and response, and it is built from the SAME list:
// for each route it runs every guard that applies, in order, through the guard's `fast` form. A guard
// without a fast form leaves every route it applies to to the full stack, so a guard added to the API
// is applied to every route by construction (src/http/pipeline.test.ts adds one and checks each route).
//
// A fast form may decline a request — hand it to the full Express stack untouched — until the request
// is committed (before its body is read or anything is written): no cookie, a bad signature, no
// session row, a deleted user, a session the policy would refresh or end, a refused origin, a body
// the direct read does not take. Afterwards every answer, including errors (through the app's error
// handler), is this path's. src/http/fast-path.test.ts compares its answers with the full stack's.

/** One guard of the API's request pipeline (src/app.ts `apiGuards`). */
export interface Guard {
  name: string;
  /** The guard as the API router runs it. */
  middleware: RequestHandler;
  /** Only POST requests pass through it (both forms). */
  postsOnly?: boolean;
  /**
   * `false`: it does not stand in front of the signed-in pages (decision 047 "Session 18"), whose GETs
   * read no body and sign in by the session cookie alone. Every other guard does, on both paths.
   */
  pages?: false;
  /** The same guard on the fast path. Without one, every route it applies to takes the full stack. */
  fast?: FastGuard;
}

/** A guard's fast form: calls `next()` to pass, `next(err)` to fail, or `call.decline()`. */
export type FastGuard = (call: FastCall, next: (err?: unknown) => void) => void;

/** A request on the fast path, as its guards and route see it. */
export interface FastCall {
  readonly req: IncomingMessage;
  /** The request through Express's request prototype, for its getters (ip, protocol, query) only. */
  readonly view: Request;
  /** The path under the API's mount point, e.g. `/hourly/claim`. */
  readonly path: string;
  /** The signed-in user (set by the session guard). */
  userId: string;
  /** The parsed JSON body, when there is one (set by the body guard). */
  body: unknown;
  /** Hands the request to the full stack untouched; only before `commit()`. */
  decline(): void;
  /** The fast path answers this request whatever follows (before reading its body or writing). */
  commit(): void;
}

/** The API's guards as one middleware (one router layer), in order, each `postsOnly` honoured. */
export function guardsMiddleware(guards: Guard[]): RequestHandler {
  const handlers = guards.map(({ middleware, postsOnly }): RequestHandler =>
    postsOnly
      ? (req, res, next) => (req.method === 'POST' ? middleware(req, res, next) : next())
      : middleware,
  );
  return inSeries(handlers);
}

/**
 * Runs the handlers in order as one middleware. An error (or a rejected promise) skips the rest and
 * goes to the router's error handling, as with separate layers.
 */
export function inSeries(handlers: RequestHandler[]): RequestHandler {
  return function apiGuards(req, res, next) {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

// express-session's own copies of the cookie modules, so parsing and signature checks cannot drift.
const sessionRequire = createRequire(createRequire(import.meta.url).resolve('express-session'));
const cookieLib = sessionRequire('cookie') as { parse(header: string): Record<string, string | undefined> };
const signature = sessionRequire('cookie-signature') as {
  unsign(value: string, secret: string): string | false;
};

/** What the fast path needs of the session setup (src/auth/session.ts). */
export interface SessionAccess {
  store: Store;
  /** Cookie name. */
  name: string;
  /** express-session's `secret` option as an array: the first signs, all are accepted. */
  secrets: string[];
}

/** The session id express-session would take from this Cookie header (its getcookie()), or undefined. */
export function signedSessionId(
  header: string | undefined,
  name: string,
  secrets: string[],
): string | undefined {
  const value = signedValue(header, name);
  return value === undefined ? undefined : unsignWith(value, secrets);
}

/** The session cookie's signed value (after `s:`), or undefined. */
function signedValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const raw = cookieLib.parse(header)[name];
  if (!raw || raw.slice(0, 2) !== 's:') return undefined;
  return raw.slice(2);
}

function unsignWith(value: string, secrets: string[]): string | undefined {
  for (const secret of secrets) {
    const result = signature.unsign(value, secret);
    if (result !== false) return result;
  }
  return undefined;
}

/** Signed cookie values whose check `sessionIdReader` remembers at most (then it starts over). */
export const VERIFIED_COOKIES_KEPT = 10_000;
/** Longer signed values are checked every time (a session cookie is ~80 characters). */
const VERIFIED_COOKIE_MAX_LENGTH = 200;

/**
 * `signedSessionId` for one cookie name and set of secrets, remembering the values whose signature
 * checked out: the check (an HMAC, and a constant-time compare) was ~70 % of reading the cookie, on every
 * signed-in request. The answer for a value never changes while the secrets don't, so a remembered value
 * gives the same session id the check would; a value that fails is never remembered (it is checked each
 * time, and an attacker's guesses fill nothing). Bounded: at most VERIFIED_COOKIES_KEPT short values.
 */
export function sessionIdReader(
  name: string,
  secrets: string[],
  kept = VERIFIED_COOKIES_KEPT,
): (header: string | undefined) => string | undefined {
  const verified = new Map<string, string>();
  return (header) => {
    const value = signedValue(header, name);
    if (value === undefined) return undefined;
    const known = verified.get(value);
    if (known !== undefined) return known;
    const sid = unsignWith(value, secrets);
    if (sid !== undefined && value.length <= VERIFIED_COOKIE_MAX_LENGTH) {
      if (verified.size >= kept) verified.clear();
      verified.set(value, sid);
    }
    return sid;
  };
}

export interface FastSessionOptions {
  session: SessionAccess;
  deserializeUser: (
    stored: unknown,
    req: IncomingMessage,
    done: (err: unknown, user?: unknown) => void,
  ) => void;
  check: SessionCheck;
  now: () => number;
  onTouchError: (err: unknown) => void;
}

/**
 * The session guard's fast form: what express-session, passport's session strategy and the session
 * policy decide, with their own functions (the cookie modules above, the same store's `get`, the same
 * passport's `deserializeUser`, `sessionCheck`). It passes only a signed-in session the policy lets
 * through unchanged, and then makes the (throttled) touch express-session makes at the end of such a
 * request; anything else is declined. A store failure is the error handler's (503), as with
 * express-session. While the store reports `disconnect`, express-session runs without sessions: declined.
 */
export function fastSession(options: FastSessionOptions): FastGuard {
  const { store, name, secrets } = options.session;
  const sessionIdOf = sessionIdReader(name, secrets);
  let storeReady = true;
  store.on('disconnect', () => (storeReady = false));
  store.on('connect', () => (storeReady = true));
  return (call, next) => {
    const sid = storeReady ? sessionIdOf(call.req.headers.cookie) : undefined;
    if (sid === undefined) return call.decline();
    store.get(sid, (err, sess) => {
      if (err && (err as { code?: unknown }).code !== 'ENOENT') return next(err);
      const stored = !err && sess ? (sess as { passport?: { user?: unknown } }).passport?.user : undefined;
      if (!sess || (!stored && stored !== 0)) return call.decline();
      options.deserializeUser(stored, call.req, (failed, user) => {
        const id = !failed && user ? (user as { id?: unknown }).id : undefined;
        if (typeof id !== 'string') return call.decline();
        options.check(sess, id, options.now()).then((verdict) => {
          if (verdict !== 'current') return call.decline();
          call.userId = id;
          // The session express-session would touch is built only when the store, which throttles
          // touches (src/auth/session.ts), reads it; on a stand-in request: a session on the request
          // itself would make express-session skip its own work if a later guard declines.
          const touched = {
            get cookie() {
              const created = store.createSession({ sessionID: sid } as never, sess);
              created.touch();
              return created.cookie;
            },
          };
          store.touch?.(sid, touched, (touchErr?: unknown) => {
            if (touchErr) options.onTouchError(touchErr);
          });
          next();
        }, next);
      });
    });
  };
}

/**
 * The JSON body guard's fast form: reads the body itself only when body-parser would read it the same
 * way (exactly `application/json`, no encodings, a length within the route's limit); any other body is
 * declined to the parser itself. A request without a body passes with none, as body-parser skips it.
 */
export function fastJsonBody(limitFor: (path: string) => number): FastGuard {
  return (call, next) => {
    const { req } = call;
    const headers = req.headers;
    const length = headers['content-length'];
    if (headers['transfer-encoding'] === undefined && length === undefined) return next();
    if (
      headers['transfer-encoding'] !== undefined ||
      headers['content-encoding'] !== undefined ||
      headers['content-type'] !== 'application/json' ||
      length === undefined ||
      !/^\d{1,9}$/.test(length) ||
      Number(length) > limitFor(call.path)
    ) {
      return call.decline();
    }
    call.commit();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        call.body = parseJsonBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      } catch (err) {
        return next(err);
      }
      next();
    });
    // As body-parser: a request that fails while its body is read is a 400 (its client is gone).
    req.on('error', (err) => next(Object.assign(err, { status: 400, type: 'request.aborted' })));
  };
}

/**
 * Runs a middleware that only sets headers (helmet) once against a recorder and returns what it set:
 * the app then sets that constant block on every response instead of recomputing it. Throws if the
 * middleware does anything else (reads the request, answers, fails), which would make it per-request.
 */
export function recordConstantHeaders(middleware: RequestHandler): [string, string][] {
  const headers = new Map<string, string>();
  let passed = false;
  const req = new Proxy(
    {},
    {
      get(_target, prop) {
        throw new Error(`header middleware read req.${String(prop)}: its headers are not constant`);
      },
    },
  );
  const res = {
    setHeader(name: string, value: unknown) {
      headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
      return res;
    },
    removeHeader() {
      // X-Powered-By: express never sets it here (disabled).
    },
  };
  void middleware(
    req as Request,
    res as unknown as Response,
    ((err?: unknown) => {
      if (err) throw err instanceof Error ? err : new Error('header middleware failed');
      passed = true;
    }) as NextFunction,
  );
  if (!passed) throw new Error('header middleware did not call next() synchronously');
  return [...headers];
}

/** A middleware setting a constant header block. */
export function constantHeaders(headers: [string, string][]): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * What a fast route answers: a JSON body as is (`buffer`, like the Discover route's `sendJsonBuffer`,
 * no ETag) or a value Express's `res.json` would send (`json`: same serialisation, Content-Type,
 * Content-Length and ETag).
 */
export type FastAnswer = { buffer: Buffer; headers?: [string, string][] } | { json: unknown };

/** A fast route: the same function its Express route answers with. */
export type FastRoute = (call: FastCall) => FastAnswer | Promise<FastAnswer>;

export interface FastPathOptions {
  app: Express;
  /** Where the API router is mounted (`/api`). */
  mount: string;
  /** The API's guards, in order (the same list the API router runs). */
  guards: Guard[];
  /** The fast routes by `METHOD path` under the mount, e.g. `GET /servers`. */
  routes: Map<string, FastRoute>;
  /** Header block every API response carries (helmet's, recorded once, and the API's Cache-Control). */
  headers: [string, string][];
  /** The request id, metric and log line (`plainRequestStarter`), under a route label and the label of a request that fails before it. */
  start: (req: IncomingMessage, res: ServerResponse, route: string, unmatched?: string) => PlainRequestState;
  errorHandler: ErrorRequestHandler;
  /**
   * The signed-in pages (decision 047 "Session 18"): GETs of these exact paths run the guards that stand
   * in front of pages (every guard but the `pages: false` ones, in list order, through their fast forms)
   * and then `handler`, the same function the full stack's page route ends with, on Express's objects
   * with `req.user` set. `accepts` may decline a request before the guards (a client that takes no gzip).
   */
  pages?: {
    paths: readonly string[];
    handler: RequestHandler;
    accepts: (view: Request) => boolean;
    /** Header block of every page (helmet's; a page sets its own Cache-Control). */
    headers: [string, string][];
    /** The metric label of a page request (the full stack's for its history fallback). */
    label: string;
  };
}

/** The guards that stand in front of the signed-in pages, in list order (GETs: no `postsOnly` guard). */
export function pageGuards(guards: Guard[]): Guard[] {
  return guards.filter((g) => !g.postsOnly && g.pages !== false);
}

/** The server's request listener, with how many requests the fast path itself answered. */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  fastPath?: { served: number };
};

interface Target {
  path: string;
  /** `/api/servers`: the metric label of the route. */
  label: string;
  /** The label of a request that fails before its route (`/api/*unmatched` under the API). */
  unmatched: string;
  guards: FastGuard[];
  route: FastRoute | null;
  /** A signed-in page: its handler on Express's objects (options.pages). */
  page?: NonNullable<FastPathOptions['pages']>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The server's request listener: the fast path for its routes when every guard allows, `app` otherwise. */
export function withFastPath(options: FastPathOptions): NodeHandler {
  const { app } = options;
  const targets = compileTargets(options);
  // res.json's serialisation (Express's stringify) with the app's defaults, and its ETag function.
  for (const setting of ['json replacer', 'json spaces', 'json escape']) {
    if (app.get(setting) !== undefined && app.get(setting) !== false) {
      throw new Error(`fast path: it assumes Express's default "${setting}"`);
    }
  }
  const runtime: FastPathRuntime = {
    options,
    etagOf: app.get('etag fn') as ((body: Buffer) => string | undefined) | undefined,
    headerBlock: options.headers.flat(),
    stats: { served: 0 },
  };
  const handler: NodeHandler = (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const target = targets.get(`${req.method} ${q < 0 ? url : url.slice(0, q)}`);
    if (!target) {
      app(req, res);
      return;
    }
    const call = new Call(runtime, req, res, target);
    if (target.page && !target.page.accepts(call.view)) call.decline();
    else call.next();
  };
  handler.fastPath = runtime.stats;
  return handler;
}

/** The fast routes by `METHOD /mount/path`, each with its guards' fast forms; a route with a guard that has none is left out. */
function compileTargets(options: FastPathOptions): Map<string, Target> {
  const targets = new Map<string, Target>();
  for (const [key, route] of options.routes) {
    const [method, path] = key.split(' ') as [string, string];
    const applying = options.guards.filter((g) => !g.postsOnly || method === 'POST');
    // A guard with no fast form: the route is the full stack's (decision 046).
    if (applying.some((g) => !g.fast)) continue;
    const guards = applying.map((g) => g.fast!);
    const label = options.mount + path;
    targets.set(`${method} ${label}`, {
      path,
      label,
      unmatched: `${options.mount}/*unmatched`,
      guards,
      route,
    });
  }
  const page = options.pages;
  const applying = pageGuards(options.guards);
  // As for a route: a guard in front of pages without a fast form leaves every page to the full stack.
  if (!page || applying.some((g) => !g.fast)) return targets;
  const guards = applying.map((g) => g.fast!);
  for (const path of page.paths) {
    targets.set(`GET ${path}`, { path, label: page.label, unmatched: page.label, guards, route: null, page });
  }
  return targets;
}

/** What every call of one fast path shares. */
interface FastPathRuntime {
  options: FastPathOptions;
  etagOf: ((body: Buffer) => string | undefined) | undefined;
  /** options.headers as one flat [name, value, …] list (writeHead's raw form). */
  headerBlock: string[];
  stats: { served: number };
}

/** One request on the fast path: its guards in order, then the route, or the full stack. */
class Call implements FastCall {
  readonly view: Request;
  userId = '';
  body: unknown = undefined;
  private i = 0;
  private state: PlainRequestState | undefined;
  constructor(
    private readonly rt: FastPathRuntime,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    private readonly target: Target,
  ) {
    this.view = Object.create(rt.options.app.request) as Request;
    this.view.headers = req.headers;
    (this.view as { socket: unknown }).socket = req.socket;
    this.view.url = req.url!;
  }
  get path() {
    return this.target.path;
  }
  decline() {
    if (this.state) throw new Error('fast path: a guard declined a committed request');
    this.rt.options.app(this.req, this.res);
  }
  commit() {
    if (this.state) return;
    this.rt.stats.served += 1;
    this.state = this.rt.options.start(this.req, this.res, this.target.label, this.target.unmatched);
  }
  /** The next guard, then the route. */
  readonly next = (err?: unknown): void => {
    if (err !== undefined && err !== null) return this.fail(err);
    const guard = this.target.guards[this.i++];
    try {
      if (guard) guard(this, this.next);
      else this.route();
    } catch (thrown) {
      this.fail(thrown);
    }
  };
  private route() {
    this.commit();
    this.state!.routed = true;
    if (this.target.page) return this.page(this.target.page);
    const result = this.target.route!(this);
    if (!(result instanceof Promise)) return this.answer(result);
    result.then((a) => this.answer(a)).catch((e: unknown) => this.fail(e));
  }
  private answer(result: FastAnswer) {
    const head = [...this.rt.headerBlock, 'X-Request-Id', this.state!.requestId];
    let body: Buffer;
    if ('buffer' in result) {
      body = result.buffer;
      if (result.headers) for (const [name, value] of result.headers) head.push(name, value);
      head.push('Content-Type', JSON_TYPE, 'Content-Length', String(body.length));
    } else {
      // res.json on a GET may answer 304 (Express's freshness check): left to Express.
      if (this.req.method === 'GET') return this.toExpress()[1].json(result.json);
      body = Buffer.from(JSON.stringify(result.json) ?? '', 'utf8');
      head.push('Content-Type', JSON_TYPE, 'Content-Length', String(body.length));
      const etag = this.rt.etagOf?.(body);
      if (etag) head.push('ETag', etag);
    }
    this.res.writeHead(200, head);
    this.res.end(body);
  }
  /**
   * A signed-in page: its handler on Express's objects, as the full stack's page route runs it after the
   * same guards (the user is the session guard's; its headers helmet's, without the API's Cache-Control).
   */
  private page(page: NonNullable<FastPathOptions['pages']>) {
    const [request, response] = this.toExpress(page.headers);
    request.user = { id: this.userId };
    const result: unknown = page.handler(request, response, (err?: unknown) => {
      if (err !== undefined && err !== null) this.fail(err);
      else this.fail(new Error('fast path: a page handler passed its request on'));
    });
    if (result instanceof Promise) result.catch((e: unknown) => this.fail(e));
  }
  /** Answers `err` as the app's error handler does when an error leaves the API router. */
  private fail(err: unknown) {
    this.commit();
    const [request, response] = this.toExpress();
    this.rt.options.errorHandler(err, request, response, () => request.socket.destroy());
  }
  /** The request on Express's objects, as they are when an error has left the API router. */
  private toExpress(headers = this.rt.options.headers): [Request, Response] {
    const { app } = this.rt.options;
    const request = this.req as Request;
    const response = this.res as Response;
    Object.setPrototypeOf(request, app.request);
    Object.setPrototypeOf(response, app.response);
    request.res = response;
    response.req = request;
    response.locals = { requestId: this.state!.requestId, startedAt: this.state!.startedAt };
    request.originalUrl = request.url;
    request.baseUrl = '';
    request.params = {};
    if (!response.headersSent) {
      response.setHeader('X-Request-Id', this.state!.requestId);
      for (const [name, value] of headers) response.setHeader(name, value);
    }
    return [request, response];
  }
}

/**
 * body-parser's strict JSON parse of a UTF-8 body (its `json()` with `strict: true`): an empty body is
 * `{}`, a body not starting with `{` or `[` or not JSON is a 400 `entity.parse.failed` (the error
 * handler's "Malformed JSON body"). A leading byte order mark is dropped, as iconv-lite's decoder does.
 */
export function parseJsonBody(raw: Buffer): unknown {
  let text = raw.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*([^ \t\n\r]|$)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw parseFailed(new SyntaxError('strict violation'), text);
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw parseFailed(err as SyntaxError, text);
  }
}

function parseFailed(err: Error, body: string): Error {
  return Object.assign(err, {
    status: 400,
    statusCode: 400,
    expose: true,
    type: 'entity.parse.failed',
    body,
  });
}

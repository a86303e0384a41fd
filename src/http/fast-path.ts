import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  ErrorRequestHandler,
  Express,
  NextFunction,
  Request,
  RequestHandler,
  Response,
  Router,
} from 'express';
import type { SessionData, Store } from 'express-session';
import type { SessionCheck } from '../auth/session-policy.ts';
import type { PlainRequestState } from './request-context.ts';

// The signed-in fast path (decision 033). The hottest API routes (Discover's first page, the reward
// claim) spent most of their CPU in per-request machinery, not in their own work: Express's router
// walking ~20 layers, helmet computing the same dozen headers, express-session building and hashing a
// Session object twice, passport attaching helpers and running a strategy, and the closures of each.
//
// This path serves those routes for a request that carries a valid signed-in session which the
// session policy lets through unchanged, and it does so with the SAME code that decides everything:
//  - the session id is read exactly as express-session reads it (its own `cookie` and
//    `cookie-signature` modules, the same cookie name and secrets), the session comes from the same
//    store's `get`, the user from the same passport instance's `deserializeUser`, and the verdict from
//    the same session-policy function (src/auth/session-policy.ts);
//  - the response goes through Express's own request/response objects (the app's prototypes, so
//    res.json, ETags, req.ip and "trust proxy" behave the same), the app's constant security-header
//    block, the same request-id/metrics starter, the same JSON body parser, same-origin check, write
//    limits and address recording middleware instances, the route's own handlers (found in the API
//    router, not copied) and the same error handler.
// Anything else — no cookie, a bad signature, no session row, a signed-out or deleted user, an
// expired session, a session whose clocks need recording (a save and a fresh cookie), a store that is
// disconnected or failed, any other method or path — is handed to the full Express stack before
// anything was written or read from the body, so every refusal comes from the normal path.
// src/http/fast-path.test.ts runs the same requests through both paths and compares them.

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
  if (!header) return undefined;
  const raw = cookieLib.parse(header)[name];
  if (!raw || raw.slice(0, 2) !== 's:') return undefined;
  const value = raw.slice(2);
  for (const secret of secrets) {
    const result = signature.unsign(value, secret);
    if (result !== false) return result;
  }
  return undefined;
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

/** A route served by the fast path: method and path under the API router's mount point. */
export interface FastRoute {
  method: 'GET' | 'POST';
  path: string;
}

interface RouteLike {
  path: string;
  methods: Record<string, boolean | undefined>;
  stack: { method?: string; handle: RequestHandler }[];
}
interface LayerLike {
  route?: RouteLike;
  handle: RequestHandler & { stack?: LayerLike[] };
}

/** The first route of `router` (and the routers mounted in it) answering `method path`, with its handlers. */
export function findRoute(
  router: Router,
  route: FastRoute,
): { route: RouteLike; handlers: RequestHandler[] } {
  const walk = (stack: LayerLike[]): { route: RouteLike; handlers: RequestHandler[] } | undefined => {
    for (const layer of stack) {
      const r = layer.route;
      if (r) {
        if (r.path === route.path && r.methods[route.method.toLowerCase()]) {
          const method = route.method.toLowerCase();
          return {
            route: r,
            handlers: r.stack
              .filter((l) => l.method === undefined || l.method === method)
              .map((l) => l.handle),
          };
        }
      } else if (Array.isArray(layer.handle.stack)) {
        const found = walk(layer.handle.stack);
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = walk((router as unknown as { stack: LayerLike[] }).stack);
  if (!found) throw new Error(`fast path: no route ${route.method} ${route.path} in the API router`);
  return found;
}

/**
 * What a route answers on the plain path: a JSON body as is (`buffer`, like the Discover route's
 * `sendJsonBuffer`, no ETag) or a value Express's `res.json` would send (`json`: same serialisation,
 * Content-Type, Content-Length and ETag; only for methods for which Express never answers 304).
 */
export type PlainAnswer = { buffer: Buffer; headers?: [string, string][] } | { json: unknown };

/** The request as a plain route sees it: the signed-in user, the query, the parsed JSON body. */
export interface PlainCall {
  userId: string;
  /** What Express's `req.query` would give. */
  query: () => Record<string, unknown>;
  body: unknown;
}

/** A route's answer for the plain path: the same function its Express route answers with. */
export type PlainRoute = (call: PlainCall) => PlainAnswer | Promise<PlainAnswer>;

export interface FastPathOptions {
  app: Express;
  /** The API router and where it is mounted. */
  api: Router;
  mount: string;
  routes: FastRoute[];
  /** Header block every response carries (helmet's, recorded once) and the API's Cache-Control. */
  headers: [string, string][];
  /** Starts a request as the app's first middleware does (request id, metrics, log line). */
  startRequest: (req: Request, res: Response) => void;
  /** What runs before the session in the API stack (JSON body parser, same-origin check). */
  beforeSession: RequestHandler[];
  /** What runs after the session and before the routes (write limits, address recording). */
  afterSession: RequestHandler[];
  session: SessionAccess;
  deserializeUser: (
    stored: unknown,
    req: IncomingMessage,
    done: (err: unknown, user?: unknown) => void,
  ) => void;
  check: SessionCheck;
  now: () => number;
  notFound: RequestHandler;
  errorHandler: ErrorRequestHandler;
  onTouchError: (err: unknown) => void;
  /**
   * The plain path (no Express request/response objects), per `METHOD path` of `routes`. Unset: every
   * fast request runs on Express's objects as in `beforeSession`/`afterSession`.
   */
  plain?: PlainOptions;
}

/**
 * The plain path stands for `beforeSession` and `afterSession` with the same functions: the caller
 * guarantees that these are the JSON parser (limit `jsonLimit`), the same-origin check (`refuses` is
 * its predicate) and, for writes, only the address recording (`recordAddress`) — no write limits.
 */
export interface PlainOptions {
  routes: Map<string, PlainRoute>;
  /** Whether writes (POST) may run plain: false when write limits are on (they need Express's objects). */
  writes: boolean;
  /** The JSON parser's byte limit. */
  jsonLimit: number;
  refuses: (
    method: string | undefined,
    site: string | undefined,
    origin: string | undefined,
    protocol: () => string,
    host: string | undefined,
  ) => boolean;
  /** The address recorder: undefined when nothing to wait for, else the recording (never rejects). */
  recordAddress?: (userId: string, address: string) => Promise<void> | undefined;
  addressKey: (req: Request) => string;
  start: (req: IncomingMessage, res: ServerResponse, route: string) => PlainRequestState;
}

interface Target {
  route: RouteLike;
  /** beforeSession, the session step, afterSession, the route's handlers, notFound. */
  chain: RequestHandler[];
  /** Index of the route's first handler in `chain` (where the router would set req.route). */
  routeAt: number;
  /** `/api/servers`: the metric label of the route. */
  label: string;
  plain?: PlainRoute;
}

/** The session the fast path found, or the store's failure (which the normal path would answer). */
type Found = { sid: string; sess: SessionData; user: unknown } | { error: unknown };

/** The server's request listener, with how many requests the fast path itself answered. */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  /** `served`: all fast answers; `plain`: those answered without Express's objects. */
  fastPath?: { served: number; plain: number };
};

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The server's request listener: the fast path for its routes when the session allows, `app`
 * otherwise.
 */
export function withFastPath(options: FastPathOptions): NodeHandler {
  const { app, mount, session, check } = options;
  const { store } = session;
  const touches = typeof store.touch === 'function';
  // What express-session + passport do for the session the fast path found: attach it, and make the
  // touch express-session makes at the end of a request that left its session unchanged (the store
  // throttles it, src/auth/session.ts).
  const attachSession = (req: IncomingMessage, found: { sid: string; sess: SessionData; user: unknown }) => {
    const r = req as Request;
    (r as { sessionStore?: Store }).sessionStore = store;
    r.sessionID = found.sid;
    const created = store.createSession(r as never, found.sess);
    r.user = found.user as Request['user'];
    if (touches) {
      created.touch();
      store.touch!(found.sid, created, (err?: unknown) => {
        if (err) options.onTouchError(err);
      });
    }
  };
  // Where express-session + passport + the session policy stand in the API stack.
  const sessionStep: RequestHandler = (req, _res, next) => {
    const found = (req as { fastPathSession?: Found }).fastPathSession!;
    if ('error' in found) {
      next(found.error);
      return;
    }
    // Attached already by the plain path before it handed the request to Express's objects.
    if (!(req as { fastPathAttached?: boolean }).fastPathAttached) attachSession(req, found);
    next();
  };
  const byMethod = new Map<string, Map<string, Target>>();
  for (const route of options.routes) {
    let paths = byMethod.get(route.method);
    if (!paths) byMethod.set(route.method, (paths = new Map<string, Target>()));
    const found = findRoute(options.api, route);
    const prefix = [...options.beforeSession, sessionStep, ...options.afterSession];
    const plain = options.plain?.routes.get(`${route.method} ${route.path}`);
    paths.set(mount + route.path, {
      route: found.route,
      chain: [...prefix, ...found.handlers, options.notFound],
      routeAt: prefix.length,
      label: mount + route.path,
      ...(plain && (route.method === 'GET' || options.plain!.writes) ? { plain } : {}),
    });
  }
  // Like express-session: while the store says it is disconnected, requests run without a session.
  let storeReady = true;
  store.on('disconnect', () => (storeReady = false));
  store.on('connect', () => (storeReady = true));
  const expressRequest = app.request;
  const expressResponse = app.response;

  // res.json's serialisation (Express's stringify) with the app's defaults, and its ETag function.
  for (const setting of ['json replacer', 'json spaces', 'json escape']) {
    if (app.get(setting) !== undefined && app.get(setting) !== false) {
      throw new Error(`fast path: the plain path assumes Express's default "${setting}"`);
    }
  }
  const etagOf = app.get('etag fn') as ((body: Buffer) => string | undefined) | undefined;

  const stats = { served: 0, plain: 0 };

  /** Express's prologue (app.handle) and the mount of the API router (app.use(mount, api)). */
  const toExpress = (req: IncomingMessage, res: ServerResponse, found: Found): [Request, Response] => {
    const request = req as Request;
    const response = res as Response;
    request.res = response;
    response.req = request;
    Object.setPrototypeOf(req, expressRequest);
    Object.setPrototypeOf(res, expressResponse);
    response.locals = Object.create(null) as Response['locals'];
    const url = req.url!;
    request.originalUrl = url;
    request.baseUrl = mount;
    req.url = url.slice(mount.length);
    request.params = {};
    (request as { fastPathSession?: Found }).fastPathSession = found;
    return [request, response];
  };

  /** Runs `target.chain` from `from` on Express's objects, as the API router would. */
  const run = (request: Request, response: Response, target: Target, from: number) => {
    const { chain, routeAt } = target;
    const url = request.originalUrl;
    let i = from;
    const fail = (err: unknown) => {
      // As when an error leaves the mounted router: the URL and base URL are restored.
      request.url = url;
      request.baseUrl = '';
      options.errorHandler(err, request, response, () => {
        // The error handler passes only when headers are out already: Express's final handler then
        // destroys the socket.
        request.socket.destroy();
      });
    };
    const next = (err?: unknown): void => {
      if (err !== undefined && err !== null && err !== 'route' && err !== 'router') {
        fail(err);
        return;
      }
      if (i === routeAt) (request as { route?: unknown }).route = target.route;
      const handler = chain[i++];
      if (!handler) return;
      try {
        const result: unknown = handler(request, response, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };

  /** The fast path on Express's objects (decision 033): every step of the chain as the API runs it. */
  const serve = (req: IncomingMessage, res: ServerResponse, target: Target, found: Found) => {
    stats.served += 1;
    const [request, response] = toExpress(req, res, found);
    options.startRequest(request, response);
    for (const [name, value] of options.headers) res.setHeader(name, value);
    run(request, response, target, 0);
  };

  const plainOptions = options.plain;
  const headerBlock = options.headers.flat();

  /**
   * The plain path (decision 035): the same steps on node's own request and response. Anything it
   * does not handle itself — a body it cannot read as the JSON parser would, a refused origin, any
   * error — hands the request to Express's objects at the step the full stack would be at, and the
   * chain's own middleware (the JSON parser, the same-origin check, the error handler) answers.
   */
  const servePlain = (
    req: IncomingMessage,
    res: ServerResponse,
    target: Target,
    found: { sid: string; sess: SessionData; user: unknown },
    plainRoute: PlainRoute,
    p: PlainOptions,
  ) => {
    stats.served += 1;
    const state = p.start(req, res, target.label);
    // A view of the request through Express's request prototype, for its getters (protocol, ip, query)
    // without changing the request itself.
    const view = Object.create(expressRequest) as Request;
    view.headers = req.headers;
    (view as { socket: unknown }).socket = req.socket;
    view.url = req.url!;

    /** Hands the request to Express's objects, as the chain would have them at this point. */
    const upgrade = (): [Request, Response] => {
      const [request, response] = toExpress(req, res, found);
      const locals = response.locals as { requestId?: string; startedAt?: bigint };
      locals.requestId = state.requestId;
      locals.startedAt = state.startedAt;
      res.setHeader('X-Request-Id', state.requestId);
      for (const [name, value] of options.headers) res.setHeader(name, value);
      if (state.routed) (request as { route?: unknown }).route = target.route;
      return [request, response];
    };
    /** Continues the chain on Express's objects at step `from`. */
    const toChain = (from: number) => {
      const [request, response] = upgrade();
      run(request, response, target, from);
    };
    /** Answers `err` as the chain's error handler does when an error leaves the API router. */
    const toErrorHandler = (err: unknown) => {
      const [request, response] = upgrade();
      request.url = request.originalUrl;
      request.baseUrl = '';
      options.errorHandler(err, request, response, () => request.socket.destroy());
    };

    const answer = (result: PlainAnswer) => {
      let body: Buffer;
      const head = [...headerBlock, 'X-Request-Id', state.requestId];
      if ('buffer' in result) {
        body = result.buffer;
        if (result.headers) for (const [name, value] of result.headers) head.push(name, value);
        head.push('Content-Type', JSON_TYPE, 'Content-Length', String(body.length));
      } else {
        body = Buffer.from(JSON.stringify(result.json) ?? '', 'utf8');
        head.push('Content-Type', JSON_TYPE, 'Content-Length', String(body.length));
        const etag = etagOf?.(body);
        if (etag) head.push('ETag', etag);
      }
      res.writeHead(200, head);
      res.end(body);
    };

    const respond = (body: unknown) => {
      // The session step: the session and user as express-session and passport attach them.
      attachSession(req, found);
      (req as { fastPathAttached?: boolean }).fastPathAttached = true;
      const userId = (found.user as { id: string }).id;
      // afterSession for a write: no limits on this path (PlainOptions.writes), the address recording,
      // awaited when one runs (the route's same-address check must see it), as recordWriteAddresses does.
      const recording =
        req.method === 'POST' && p.recordAddress ? p.recordAddress(userId, p.addressKey(view)) : undefined;
      if (recording) recording.then(() => route(userId, body), toErrorHandler);
      else route(userId, body);
    };

    const route = (userId: string, body: unknown) => {
      state.routed = true;
      const done = (value: PlainAnswer) => {
        try {
          // res.json on a GET may answer 304 (Express's freshness check): left to Express.
          if ('json' in value && (req.method === 'GET' || req.method === 'HEAD'))
            upgrade()[1].json(value.json);
          else answer(value);
        } catch (err) {
          toErrorHandler(err);
        }
      };
      let result: PlainAnswer | Promise<PlainAnswer>;
      try {
        result = plainRoute({ userId, query: () => view.query, body });
      } catch (err) {
        toErrorHandler(err);
        return;
      }
      if (result instanceof Promise) result.then(done, toErrorHandler);
      else done(result);
    };

    const headers = req.headers;
    // beforeSession[0], the JSON parser (body-parser), skips a request without a body.
    if (headers['transfer-encoding'] === undefined && headers['content-length'] === undefined) {
      if (
        p.refuses(req.method, headers['sec-fetch-site'], headers.origin, () => view.protocol, headers.host)
      ) {
        toChain(1);
        return;
      }
      respond(undefined);
      return;
    }
    // A body is read here only when the parser would read it the same way: plain JSON, no
    // content-encoding, a length within the limit. Anything else goes to the parser itself.
    const length = headers['content-length'];
    if (
      headers['transfer-encoding'] !== undefined ||
      headers['content-encoding'] !== undefined ||
      headers['content-type'] !== 'application/json' ||
      length === undefined ||
      !/^\d{1,9}$/.test(length) ||
      Number(length) > p.jsonLimit
    ) {
      toChain(0);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: unknown;
      try {
        body = parseJsonBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      } catch (err) {
        toErrorHandler(err);
        return;
      }
      (req as { body?: unknown }).body = body;
      if (
        p.refuses(req.method, headers['sec-fetch-site'], headers.origin, () => view.protocol, headers.host)
      ) {
        toChain(1);
        return;
      }
      respond(body);
    });
    // As body-parser: a request that fails while its body is read is a 400 (its client is gone).
    req.on('error', (err) => toErrorHandler(Object.assign(err, { status: 400, type: 'request.aborted' })));
  };

  const handler: NodeHandler = (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const target = byMethod.get(req.method ?? '')?.get(q < 0 ? url : url.slice(0, q));
    // A request with an access token is the token's alone (decision 053): the app's bearer guard decides.
    if (!target || !storeReady || req.headers.authorization !== undefined) {
      app(req, res);
      return;
    }
    const sid = signedSessionId(req.headers.cookie, session.name, session.secrets);
    if (sid === undefined) {
      app(req, res);
      return;
    }
    store.get(sid, (err, sess) => {
      if (err && (err as { code?: unknown }).code !== 'ENOENT') {
        // express-session hands a store failure to the error handler (503 from a hung Redis): so
        // does the fast path, rather than asking the failing store a second time.
        serve(req, res, target, { error: err });
        return;
      }
      const stored = !err && sess ? (sess as { passport?: { user?: unknown } }).passport?.user : undefined;
      if (!sess || (!stored && stored !== 0)) {
        app(req, res);
        return;
      }
      options.deserializeUser(stored, req, (failed, user) => {
        const id = !failed && user ? (user as { id?: unknown }).id : undefined;
        if (typeof id !== 'string') {
          app(req, res);
          return;
        }
        check(sess, id, options.now()).then(
          (verdict) => {
            if (verdict !== 'current') app(req, res);
            else if (target.plain && plainOptions) {
              stats.plain += 1;
              servePlain(req, res, target, { sid, sess, user }, target.plain, plainOptions);
            } else serve(req, res, target, { sid, sess, user });
          },
          // The policy's lookup failed: answered by the error handler, as the session policy's
          // rejected promise would be.
          (error: unknown) => serve(req, res, target, { error }),
        );
      });
    });
  };
  handler.fastPath = stats;
  return handler;
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

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
}

interface Target {
  route: RouteLike;
  /** beforeSession, the session step, afterSession, the route's handlers, notFound. */
  chain: RequestHandler[];
  /** Index of the route's first handler in `chain` (where the router would set req.route). */
  routeAt: number;
}

/** The session the fast path found, or the store's failure (which the normal path would answer). */
type Found = { sid: string; sess: SessionData; user: unknown } | { error: unknown };

/** The server's request listener, with how many requests the fast path itself answered. */
export type NodeHandler = ((req: IncomingMessage, res: ServerResponse) => void) & {
  fastPath?: { served: number };
};

/**
 * The server's request listener: the fast path for its routes when the session allows, `app`
 * otherwise.
 */
export function withFastPath(options: FastPathOptions): NodeHandler {
  const { app, mount, session, check } = options;
  const { store } = session;
  const touches = typeof store.touch === 'function';
  // Where express-session + passport + the session policy stand in the API stack: the session the
  // fast path found is attached, and the touch express-session makes at the end of a request that
  // left its session unchanged is made (the store throttles it, src/auth/session.ts).
  const sessionStep: RequestHandler = (req, _res, next) => {
    const found = (req as { fastPathSession?: Found }).fastPathSession!;
    if ('error' in found) {
      next(found.error);
      return;
    }
    (req as { sessionStore?: Store }).sessionStore = store;
    req.sessionID = found.sid;
    const created = store.createSession(req, found.sess);
    req.user = found.user as Request['user'];
    if (touches) {
      created.touch();
      store.touch!(found.sid, created, (err?: unknown) => {
        if (err) options.onTouchError(err);
      });
    }
    next();
  };
  const byMethod = new Map<string, Map<string, Target>>();
  for (const route of options.routes) {
    let paths = byMethod.get(route.method);
    if (!paths) byMethod.set(route.method, (paths = new Map<string, Target>()));
    const found = findRoute(options.api, route);
    const prefix = [...options.beforeSession, sessionStep, ...options.afterSession];
    paths.set(mount + route.path, {
      route: found.route,
      chain: [...prefix, ...found.handlers, options.notFound],
      routeAt: prefix.length,
    });
  }
  // Like express-session: while the store says it is disconnected, requests run without a session.
  let storeReady = true;
  store.on('disconnect', () => (storeReady = false));
  store.on('connect', () => (storeReady = true));
  const expressRequest = app.request;
  const expressResponse = app.response;

  const stats = { served: 0 };
  const serve = (req: IncomingMessage, res: ServerResponse, target: Target, found: Found) => {
    stats.served += 1;
    // Express's prologue (app.handle) and the mount of the API router (app.use(mount, api)).
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
    options.startRequest(request, response);
    for (const [name, value] of options.headers) res.setHeader(name, value);

    const { chain, routeAt } = target;
    let i = 0;
    const fail = (err: unknown) => {
      // As when an error leaves the mounted router: the URL and base URL are restored.
      req.url = url;
      request.baseUrl = '';
      options.errorHandler(err, request, response, () => {
        // The error handler passes only when headers are out already: Express's final handler then
        // destroys the socket.
        req.socket.destroy();
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

  const handler: NodeHandler = (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const target = byMethod.get(req.method ?? '')?.get(q < 0 ? url : url.slice(0, q));
    if (!target || !storeReady) {
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
            if (verdict === 'current') serve(req, res, target, { sid, sess, user });
            else app(req, res);
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

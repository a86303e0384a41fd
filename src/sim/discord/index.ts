import { timingSafeEqual } from 'node:crypto';
// A local stand-in for Discord speaking API v10: OAuth2, bot REST, gateway, demo pages, control API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Router } from 'express';
import { createControlRouter } from './control.ts';
import { createGateway } from './gateway.ts';
import { createInteractionsRouter } from './interactions-rest.ts';
import { createInteractionsControlRouter } from './interactions-control.ts';
import { createCommandPagesRouter } from './command-pages.ts';
import { mountAuthorize } from './oauth.ts';
import { createPagesRouter } from './pages.ts';
import { createApiRouter } from './rest.ts';
import { SimState } from './state.ts';
import { errorDetail } from '../../ops/error-text.ts';

export { SimState, SimError, AuditLogEvent, GUILD_MEMBERS_INTENT, PRIVILEGED_INTENTS } from './state.ts';
export type { SimUser, SimGuild, SimInvite, SimMessage, SimAuditEntry, RemoveReason } from './state.ts';
export type { SimInteraction, SimInteractionMessage, SimCommand } from './interactions.ts';
export { runCommandAndWait, pressButtonAndWait, type InteractionOutcome } from './interactions-control.ts';
export { DEMO_USERS, DEMO_GUILDS } from './demo-data.ts';

export interface SimulatorOptions {
  /** Public base URL where the router is reachable, e.g. 'http://localhost:5000/discord-sim' or 'http://127.0.0.1:41234'. Used to build gateway URLs and links. */
  publicUrl: string;
  clientId: string; // OAuth2 application / bot id (a snowflake string)
  clientSecret: string;
  botToken: string; // the only token accepted as `Authorization: Bot <token>`
  statePath?: string; // if set, state is loaded from / saved to this JSON file (debounced) so a demo survives restarts
  log?: (msg: string) => void;
  /** Clock for account creation times (new users' snowflakes); tests pass their manual clock. Default Date.now. */
  now?: () => number;
  /**
   * The local token of the control API and the interaction console (demo mode sets one): their
   * state-changing requests then need it (`Authorization: Bearer <token>`) or must come from the
   * simulator's own pages (same origin). Cross-site requests are refused whether set or not.
   */
  controlToken?: string;
  /** The application's registered OAuth2 redirect URIs (see SimState.redirectUris). */
  redirectUris?: string[];
}

export interface DiscordSimulator {
  router: Router; // mount at the path part of publicUrl (or '/' standalone)
  attachGateway(server: Server): void; // handles WebSocket upgrades on `<path of publicUrl>/gateway` only
  state: SimState; // programmatic control, same operations as the control API
  close(): Promise<void>; // closes gateway sockets, flushes state file
}

export const DEFAULT_SIM_CLIENT_ID = '900000000000000001';
export const DEFAULT_SIM_CLIENT_SECRET = 'sim-client-secret';
export const DEFAULT_SIM_BOT_TOKEN = 'sim-bot-token';

export function createDiscordSimulator(opts: SimulatorOptions): DiscordSimulator {
  const log = opts.log ?? (() => undefined);
  const base = new URL(opts.publicUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const gatewayPath = `${basePath}/gateway`;
  const gatewayUrl = `${base.protocol === 'https:' ? 'wss:' : 'ws:'}//${base.host}${gatewayPath}`;

  const state = new SimState(opts.clientId, opts.statePath, opts.now);
  const gateway = createGateway({ state, gatewayPath, gatewayUrl, botToken: opts.botToken, log });
  const oauthCfg = { state, clientId: opts.clientId, clientSecret: opts.clientSecret, basePath, log };

  for (const uri of opts.redirectUris ?? []) state.redirectUris.add(uri);

  const router = express.Router();
  // The control API, the interaction console and the demo pages' forms change state: a web page the
  // demo's user visits must not drive them (issue 27 item 6). Checked before any body is read.
  router.use(controlGuard(base.origin, opts.controlToken));
  router.use(express.urlencoded({ extended: false }));
  router.use(express.json({ limit: '1mb' }));

  const api = createApiRouter({ ...oauthCfg, botToken: opts.botToken, gatewayUrl });
  // Slash commands and interactions (interactions*.ts), before the bot's REST routes and limits.
  const interactionsApi = createInteractionsRouter({ state, botToken: opts.botToken, log });
  for (const prefix of ['/api/v10', '/api/v9', '/api']) {
    router.use(prefix, interactionsApi);
    router.use(prefix, api);
  }
  router.use('/control', createInteractionsControlRouter(state));
  router.use('/control', createControlRouter(state));
  mountAuthorize(router, oauthCfg);
  router.use(createCommandPagesRouter(state));
  router.use(createPagesRouter(state));

  const onError: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // body-parser errors (malformed JSON and such), shaped like Discord's
      res.status(400).json({ message: '400: Bad Request', code: 0 });
      return;
    }
    log(`error: ${errorDetail(err)}`);
    res.status(500).json({ message: '500: Internal Server Error', code: 0 });
  };
  router.use(onError);

  return {
    router,
    state,
    attachGateway: (server) => gateway.attach(server),
    async close() {
      await gateway.close();
      state.flush();
    },
  };
}

/** Paths of the simulator that are its operator's, not Discord's API (which authenticates by token). */
const CONTROL_PATHS =
  /^\/(control(\/|$)|guilds\/[^/]+\/(commands|buttons|webhooks)$|invite\/|guilds\/[^/]+\/members\/)/;

/**
 * Refuses cross-site state-changing requests to the control API, the interaction console and the demo
 * pages' forms (the product API's rule: Sec-Fetch-Site cross-site, Origin null or another origin), and
 * with a control token, any such request that neither carries it nor comes from the same origin.
 */
function controlGuard(origin: string, token: string | undefined): express.RequestHandler {
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return (req, res, next) => {
    if (
      req.method === 'GET' ||
      req.method === 'HEAD' ||
      req.method === 'OPTIONS' ||
      !CONTROL_PATHS.test(req.path)
    ) {
      next();
      return;
    }
    const site = req.get('sec-fetch-site');
    const from = req.get('origin');
    const sameOrigin = site === 'same-origin' || from === origin;
    if (
      site === 'cross-site' ||
      site === 'same-site' ||
      from === 'null' ||
      (from !== undefined && from !== origin)
    ) {
      res.status(403).json({ message: '403: Forbidden (cross-site request to the simulator)', code: 0 });
      return;
    }
    if (expected && !sameOrigin) {
      const given = Buffer.from(req.get('authorization') ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res
          .status(401)
          .json({ message: '401: Unauthorized (the simulator control token is required)', code: 0 });
        return;
      }
    }
    next();
  };
}

/** Standalone on its own loopback port (port 0 = random); publicUrl is derived. */
export async function startDiscordSimulator(
  opts: Partial<SimulatorOptions> & { port?: number },
): Promise<DiscordSimulator & { url: string }> {
  const app = express();
  const server = createServer(app);
  // Idle keep-alive connections stay open a minute (Node's default is 5 s). A client reuses an idle
  // connection until shortly before the server's announced timeout; on a loaded machine its timer runs
  // late, the server closes the connection as the request goes out, and a POST (which undici does not
  // retry) fails with ECONNRESET: contract.test.ts did so twice in one clean-clone run at load ~20.
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 61_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = opts.publicUrl?.replace(/\/+$/, '') ?? `http://127.0.0.1:${port}`;
  const sim = createDiscordSimulator({
    clientId: DEFAULT_SIM_CLIENT_ID,
    clientSecret: DEFAULT_SIM_CLIENT_SECRET,
    botToken: DEFAULT_SIM_BOT_TOKEN,
    ...opts,
    publicUrl: url,
  });
  app.use(new URL(url).pathname, sim.router);
  sim.attachGateway(server);
  return {
    ...sim,
    url,
    async close() {
      await sim.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { Router, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { requireUser } from '../http/guards.ts';
import { addressKey } from '../http/write-limits.ts';
import { LIVE_HEARTBEAT_MS, LIVE_RETRY_MS } from '../shared/live-events.ts';
import { isRevoked, sessionCheck } from '../auth/session-policy.ts';
import type { StoredEvent } from './event-bus.ts';

/** Open streams per user in this process; a new one beyond this closes the oldest (one per tab is normal). */
export const MAX_STREAMS_PER_USER = 8;

/** What a refused stream is told: the web app's EventSource reopens later by itself. */
export const STREAMS_FULL_MESSAGE = 'Live updates are busy right now. The page will reconnect shortly.';
/** Seconds a refused stream is asked to wait (Retry-After). */
const STREAMS_RETRY_AFTER_S = 30;

function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,16}$/.test(value.trim())) return null;
  return Number(value.trim());
}

interface Stream {
  res: Response;
  userId: string;
  sid: string;
  address: string;
  /** Asks the session store and the session policy whether this stream's session is still valid. */
  verify(): void;
  /** Ends the stream now: nothing more is written, the session is not saved. */
  end(): void;
}

/**
 * GET /api/events: the signed-in user's live events as Server-Sent Events (issue 12 item 7). The
 * session cookie authenticates it like any API call (same origin, so the CSP's connect-src 'self'
 * allows it). A reconnecting browser sends Last-Event-ID and first gets what it missed from the
 * replay buffer; a comment line every 25 s keeps proxies from closing an idle stream.
 *
 * Revocation (decision 039): the stream saves its session once, as it opens, and then lets go of it,
 * so its end never saves (and so never re-creates) a session. Sign-out, sign-out everywhere and account
 * deletion reach it through the event bus's revocations, on the events' own channel: it ends at once
 * and receives nothing published after. The heartbeat also asks the store and the session policy.
 *
 * Floods (decision 040): at most `liveStreams` streams in this process and `liveStreamsPerAddress` from
 * one address; beyond, a 503 with Retry-After before anything is held. One heartbeat timer serves all.
 */
export function liveEventRoutes(
  ctx: AppContext,
  options: { heartbeatMs?: number; maxStreams?: number; maxPerAddress?: number } = {},
): Router {
  const router = Router();
  const heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const maxStreams = options.maxStreams ?? ctx.config.limits.liveStreams;
  const maxPerAddress = options.maxPerAddress ?? ctx.config.limits.liveStreamsPerAddress;
  const check = sessionCheck(ctx);
  const byUser = new Map<string, Set<Stream>>();
  const byAddress = new Map<string, number>();
  const all = new Set<Stream>();

  // One timer for every stream of the process, running only while a stream is open.
  let heartbeat: NodeJS.Timeout | undefined;
  const beat = () => {
    for (const stream of all) {
      stream.res.write(': ping\n\n');
      stream.verify();
    }
  };
  const startHeartbeat = () => {
    if (heartbeat) return;
    heartbeat = setInterval(beat, heartbeatMs);
    heartbeat.unref();
  };
  const stopHeartbeatIfIdle = () => {
    if (all.size === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = undefined;
    }
  };

  router.get('/events', async (req, res) => {
    const userId = requireUser(req);
    const address = addressKey(req);
    if (all.size >= maxStreams || (byAddress.get(address) ?? 0) >= maxPerAddress) {
      res.setHeader('Retry-After', String(STREAMS_RETRY_AFTER_S));
      res.status(503).json({ message: STREAMS_FULL_MESSAGE });
      return;
    }
    // The browser's own reconnect sends the header; the web app's reopen after a refused stream, the query.
    const lastEventId =
      parseLastEventId(req.get('last-event-id')) ??
      parseLastEventId(typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
    const sid = req.sessionID;
    const store = req.sessionStore;
    const session = req.session;
    const signedInAt = session.signedInAt;
    // What the session policy recorded (lastSeenAt) is saved now; then the stream lets go of the
    // session: express-session saves nothing at its end (a stream outlives revocations).
    if ((req as { sessionRefreshed?: boolean }).sessionRefreshed) {
      await new Promise<void>((resolve, reject) =>
        session.save((err: unknown) =>
          err ? reject(err instanceof Error ? err : new Error('session store failed')) : resolve(),
        ),
      );
    }

    let ended = false;
    let closed = false;
    const stream: Stream = {
      res,
      userId,
      sid,
      address,
      verify() {
        store.get(sid, (err, sess) => {
          if (err || ended) return; // a store error (Redis timeout) keeps the stream
          const signedIn = (sess as { passport?: { user?: unknown } } | null | undefined)?.passport?.user;
          if (!sess || !signedIn) {
            stream.end();
            return;
          }
          check(sess, userId, ctx.clock.now()).then(
            (verdict) => {
              if (verdict === 'expired' || verdict === 'deleted' || verdict === 'revoked') stream.end();
            },
            () => undefined,
          );
        });
      },
      end() {
        if (ended) return;
        ended = true;
        res.end();
      },
    };

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Connection', 'keep-alive');
    // nginx buffers proxied responses unless told not to.
    res.setHeader('X-Accel-Buffering', 'no');
    (res.locals as { stream?: boolean }).stream = true;
    res.flushHeaders();
    (req as { session?: unknown }).session = undefined;
    res.write(`retry: ${LIVE_RETRY_MS}\n: connected\n\n`);

    all.add(stream);
    byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    const streams = byUser.get(userId) ?? new Set<Stream>();
    byUser.set(userId, streams);
    streams.add(stream);
    if (streams.size > MAX_STREAMS_PER_USER) {
      const oldest = streams.values().next();
      if (!oldest.done) oldest.value.end();
    }
    startHeartbeat();

    const send = (stored: StoredEvent) => {
      if (ended) return;
      res.write(`id: ${stored.id}\ndata: ${JSON.stringify(stored.event)}\n\n`);
    };
    // Subscribe before reading the buffer, hold live events until the replay is out, and skip the
    // ones the replay already carried: nothing is lost or sent twice in between.
    let replaying = true;
    const held: StoredEvent[] = [];
    const unsubscribe = ctx.events.subscribe(userId, (stored) => {
      if (replaying) held.push(stored);
      else send(stored);
    });
    const stopRevocations = ctx.events.onRevoke(userId, (revocation) => {
      if (
        revocation.sid === sid ||
        (revocation.validAfter !== undefined && isRevoked(signedInAt, revocation.validAfter))
      ) {
        stream.end();
      }
    });
    const cleanUp = () => {
      if (closed) return;
      closed = true;
      ended = true;
      unsubscribe();
      stopRevocations();
      all.delete(stream);
      const count = (byAddress.get(address) ?? 1) - 1;
      if (count <= 0) byAddress.delete(address);
      else byAddress.set(address, count);
      streams.delete(stream);
      if (streams.size === 0 && byUser.get(userId) === streams) byUser.delete(userId);
      stopHeartbeatIfIdle();
    };
    res.on('close', cleanUp);

    const missed = lastEventId === null ? [] : await ctx.events.since(userId, lastEventId);
    if (ended) return;
    const replayed = new Set<number>();
    for (const stored of missed) {
      replayed.add(stored.id);
      send(stored);
    }
    replaying = false;
    for (const stored of held) if (!replayed.has(stored.id)) send(stored);
  });

  return router;
}

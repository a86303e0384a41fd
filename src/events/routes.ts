import { Router, type Response } from 'express';
import type { AppContext } from '../context.ts';
import { requireUser } from '../http/guards.ts';
import { LIVE_HEARTBEAT_MS, LIVE_RETRY_MS } from '../shared/live-events.ts';
import type { StoredEvent } from './event-bus.ts';

/** Open streams per user in this process; a new one beyond this closes the oldest (one per tab is normal). */
export const MAX_STREAMS_PER_USER = 8;

function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,16}$/.test(value.trim())) return null;
  return Number(value.trim());
}

/**
 * GET /api/events: the signed-in user's live events as Server-Sent Events (issue 12 item 7). The
 * session cookie authenticates it like any API call (same origin, so the CSP's connect-src 'self'
 * allows it). A reconnecting browser sends Last-Event-ID and first gets what it missed from the
 * replay buffer; a comment line every 25 s keeps proxies from closing an idle stream.
 */
export function liveEventRoutes(ctx: AppContext, options: { heartbeatMs?: number } = {}): Router {
  const router = Router();
  const heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const open = new Map<string, Set<Response>>();

  router.get('/events', async (req, res) => {
    const userId = requireUser(req);
    // The browser's own reconnect sends the header; the web app's reopen after a refused stream, the query.
    const lastEventId =
      parseLastEventId(req.get('last-event-id')) ??
      parseLastEventId(typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Connection', 'keep-alive');
    // nginx buffers proxied responses unless told not to.
    res.setHeader('X-Accel-Buffering', 'no');
    (res.locals as { stream?: boolean }).stream = true;
    res.flushHeaders();
    res.write(`retry: ${LIVE_RETRY_MS}\n: connected\n\n`);

    const streams = open.get(userId) ?? new Set<Response>();
    open.set(userId, streams);
    streams.add(res);
    if (streams.size > MAX_STREAMS_PER_USER) {
      const oldest = streams.values().next();
      if (!oldest.done) oldest.value.end();
    }

    const send = (stored: StoredEvent) => {
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
    // Each heartbeat also asks the session store whether this stream's session still exists: sign-out,
    // sign-out everywhere (any process) and account deletion end it, and the stream closes with it.
    const sid = req.sessionID;
    const store = req.sessionStore;
    const heartbeat = setInterval(() => {
      res.write(': ping\n\n');
      store.get(sid, (err, sess) => {
        const signedIn = (sess as { passport?: { user?: unknown } } | null | undefined)?.passport?.user;
        // A store error (Redis timeout) keeps the stream: only a session known to be gone ends it.
        if (!err && !signedIn) res.end();
      });
    }, heartbeatMs);
    heartbeat.unref();
    let closed = false;
    const cleanUp = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(res);
      if (streams.size === 0 && open.get(userId) === streams) open.delete(userId);
    };
    res.on('close', cleanUp);

    const missed = lastEventId === null ? [] : await ctx.events.since(userId, lastEventId);
    if (closed) return;
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

import { Router, type Request, type Response } from 'express';
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
  /** Set once the stream is over (ended by us, or closed by the client): nothing more is written. */
  ended: boolean;
  /** Asks the session store and the session policy whether this stream's session is still valid. */
  verify(): void;
  /** Ends the stream now: nothing more is written, the session is not saved. */
  end(): void;
}

/**
 * Streams one heartbeat slice serves before it lets the loop go (decision 049, session 15): each stream's
 * ping and session check cost ~25 µs of the loop (profiled at load 10–15), so a beat over 1,000 streams in
 * one go held it for 24.5–26.5 ms of CPU (~125 ms at the flood limit's 5,000), a stall every heartbeat; a
 * slice of 100 took 2 ms (6 ms at most), and the requests waiting meanwhile are served between slices.
 */
export const HEARTBEAT_SLICE = 100;

/** The open streams of this process, by user and by address, and the one heartbeat timer serving them. */
class StreamRegistry {
  private readonly all = new Set<Stream>();
  private readonly byUser = new Map<string, Set<Stream>>();
  private readonly byAddress = new Map<string, number>();
  /** Runs only while a stream is open. */
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set while a beat's slices are still going (a beat never overlaps the next). */
  private beating = false;

  constructor(
    private readonly heartbeatMs: number,
    private readonly maxStreams: number,
    private readonly maxPerAddress: number,
    private readonly slice: number = HEARTBEAT_SLICE,
  ) {}

  isFull(address: string): boolean {
    return this.all.size >= this.maxStreams || (this.byAddress.get(address) ?? 0) >= this.maxPerAddress;
  }

  /** Holds a new stream; the user's oldest ends when they have more than MAX_STREAMS_PER_USER. */
  add(stream: Stream): void {
    this.all.add(stream);
    this.byAddress.set(stream.address, (this.byAddress.get(stream.address) ?? 0) + 1);
    const streams = this.byUser.get(stream.userId) ?? new Set<Stream>();
    this.byUser.set(stream.userId, streams);
    streams.add(stream);
    if (streams.size > MAX_STREAMS_PER_USER) {
      const oldest = streams.values().next();
      if (!oldest.done) oldest.value.end();
    }
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  remove(stream: Stream): void {
    this.all.delete(stream);
    const count = (this.byAddress.get(stream.address) ?? 1) - 1;
    if (count <= 0) this.byAddress.delete(stream.address);
    else this.byAddress.set(stream.address, count);
    const streams = this.byUser.get(stream.userId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byUser.delete(stream.userId);
    if (this.all.size === 0 && this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    }
  }

  /**
   * Pings every stream open when the beat starts and asks whether its session is still valid, `slice`
   * streams per turn of the loop (setImmediate in between); a stream that ended meanwhile is skipped.
   */
  private beat(): void {
    if (this.beating) return;
    this.beating = true;
    const streams = [...this.all];
    let next = 0;
    const run = () => {
      let more = false;
      try {
        const end = Math.min(next + this.slice, streams.length);
        for (; next < end; next++) {
          const stream = streams[next]!;
          if (stream.ended || !this.all.has(stream)) continue;
          stream.res.write(': ping\n\n');
          stream.verify();
        }
        more = next < streams.length;
      } finally {
        // A throw ends this beat, never the heartbeat: the next beat starts afresh.
        if (more) setImmediate(run);
        else this.beating = false;
      }
    };
    run();
  }
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
  options: {
    heartbeatMs?: number;
    maxStreams?: number;
    maxPerAddress?: number;
    heartbeatSlice?: number;
  } = {},
): Router {
  const router = Router();
  const registry = new StreamRegistry(
    options.heartbeatMs ?? LIVE_HEARTBEAT_MS,
    options.maxStreams ?? ctx.config.limits.liveStreams,
    options.maxPerAddress ?? ctx.config.limits.liveStreamsPerAddress,
    options.heartbeatSlice ?? HEARTBEAT_SLICE,
  );
  const check = sessionCheck(ctx);

  router.get('/events', async (req, res) => {
    const userId = requireUser(req);
    const address = addressKey(req);
    if (registry.isFull(address)) {
      res.setHeader('Retry-After', String(STREAMS_RETRY_AFTER_S));
      res.status(503).json({ message: STREAMS_FULL_MESSAGE });
      return;
    }
    // The browser's own reconnect sends the header; the web app's reopen after a refused stream, the query.
    const lastEventId =
      parseLastEventId(req.get('last-event-id')) ??
      parseLastEventId(typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
    const store = req.sessionStore;
    const signedInAt = req.session.signedInAt;
    await saveRefreshedSession(req);
    const stream = newStream(res, { userId, sid: req.sessionID, address }, (sid, onInvalid) =>
      store.get(sid, (err, sess) => {
        if (err || stream.ended) return; // a store error (Redis timeout) keeps the stream
        const signedIn = (sess as { passport?: { user?: unknown } } | null | undefined)?.passport?.user;
        if (!sess || !signedIn) {
          onInvalid();
          return;
        }
        check(sess, userId, ctx.clock.now()).then(
          (verdict) => {
            if (verdict === 'expired' || verdict === 'deleted' || verdict === 'revoked') onInvalid();
          },
          () => undefined,
        );
      }),
    );
    openEventStream(req, res);
    registry.add(stream);
    await relayEvents(ctx, registry, stream, signedInAt, lastEventId);
  });

  return router;
}

/**
 * What the session policy recorded (lastSeenAt) is saved now; then the stream lets go of the session:
 * express-session saves nothing at its end (a stream outlives revocations).
 */
async function saveRefreshedSession(req: Request): Promise<void> {
  if (!(req as { sessionRefreshed?: boolean }).sessionRefreshed) return;
  const session = req.session;
  await new Promise<void>((resolve, reject) =>
    session.save((err: unknown) =>
      err ? reject(err instanceof Error ? err : new Error('session store failed')) : resolve(),
    ),
  );
}

function newStream(
  res: Response,
  who: { userId: string; sid: string; address: string },
  verifySession: (sid: string, onInvalid: () => void) => void,
): Stream {
  const stream: Stream = {
    res,
    ...who,
    ended: false,
    verify() {
      verifySession(who.sid, () => stream.end());
    },
    end() {
      if (stream.ended) return;
      stream.ended = true;
      res.end();
    },
  };
  return stream;
}

/** The response becomes an event stream, and the request lets go of its session. */
function openEventStream(req: Request, res: Response): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Connection', 'keep-alive');
  // nginx buffers proxied responses unless told not to.
  res.setHeader('X-Accel-Buffering', 'no');
  (res.locals as { stream?: boolean }).stream = true;
  res.flushHeaders();
  (req as { session?: unknown }).session = undefined;
  res.write(`retry: ${LIVE_RETRY_MS}\n: connected\n\n`);
}

/** Sends what was missed since `lastEventId`, then live events, until the stream ends or is revoked. */
async function relayEvents(
  ctx: AppContext,
  registry: StreamRegistry,
  stream: Stream,
  signedInAt: number | undefined,
  lastEventId: number | null,
): Promise<void> {
  const { userId, sid, res } = stream;
  const send = (stored: StoredEvent) => {
    if (stream.ended) return;
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
  let closed = false;
  res.on('close', () => {
    if (closed) return;
    closed = true;
    stream.ended = true;
    unsubscribe();
    stopRevocations();
    registry.remove(stream);
  });

  const missed = lastEventId === null ? [] : await ctx.events.since(userId, lastEventId);
  if (stream.ended) return;
  const replayed = new Set<number>();
  for (const stored of missed) {
    replayed.add(stored.id);
    send(stored);
  }
  replaying = false;
  for (const stored of held) if (!replayed.has(stored.id)) send(stored);
}

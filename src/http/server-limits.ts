import type http from 'node:http';
import type { Socket } from 'node:net';
import type { NodeHandler } from './fast-path.ts';

// Floods (issue 27 items 2-3, decision 040): the process stays up by design, not by heap size. Every
// limit answers a fast 503 with Retry-After beyond it, before anything is held for the request.

/** Node's server time limits (decision 040): what a client may take before the server hangs up. */
export const SERVER_TIMEOUTS = {
  /** The request line and headers. */
  headersTimeoutMs: 10_000,
  /** The whole request, body included (a response may stream longer: live events). */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection between requests. */
  keepAliveTimeoutMs: 5_000,
  /** How often Node checks the two above (default 30 s, which would let a stalled body live 60 s). */
  checkEveryMs: 2_000,
} as const;

export const BUSY_MESSAGE = 'The server is busy right now. Please try again in a few seconds.';
const RETRY_AFTER_S = 5;

const RAW_BUSY = Buffer.from(
  `HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nRetry-After: ${RETRY_AFTER_S}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(JSON.stringify({ message: BUSY_MESSAGE }))}\r\n\r\n${JSON.stringify({ message: BUSY_MESSAGE })}`,
);

export interface ServerLimits {
  /** Open connections at most; a connection beyond is answered 503 and closed at once. */
  maxConnections: number;
  /** Requests whose body is still being received at most; one beyond is answered 503 unread. */
  maxBodiesInFlight: number;
}

export interface LimitStats {
  connections: number;
  bodiesInFlight: number;
  refusedConnections: number;
  refusedBodies: number;
}

const refused = new WeakSet<Socket>();

/**
 * Sets the server's time limits and counts connections; returns the request listener wrapper that
 * counts request bodies in flight. Call before the server listens or right after (the limits apply to
 * connections accepted from then on).
 */
export function applyServerLimits(
  server: http.Server,
  limits: ServerLimits,
): { wrap(handler: NodeHandler): NodeHandler; stats: LimitStats } {
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.keepAliveTimeout = SERVER_TIMEOUTS.keepAliveTimeoutMs;
  const stats: LimitStats = { connections: 0, bodiesInFlight: 0, refusedConnections: 0, refusedBodies: 0 };

  server.on('connection', (socket: Socket) => {
    if (stats.connections >= limits.maxConnections) {
      stats.refusedConnections += 1;
      refused.add(socket);
      // Answered before any request is read: the client learns why and when to come back.
      socket.end(RAW_BUSY);
      socket.setTimeout(1000, () => socket.destroy());
      return;
    }
    stats.connections += 1;
    socket.once('close', () => {
      stats.connections -= 1;
    });
  });

  const wrap = (handler: NodeHandler): NodeHandler => {
    const wrapped: NodeHandler = (req, res) => {
      if (refused.has(req.socket)) {
        req.socket.destroy();
        return;
      }
      const headers = req.headers;
      const hasBody =
        headers['transfer-encoding'] !== undefined ||
        (headers['content-length'] !== undefined && headers['content-length'] !== '0');
      if (!hasBody) {
        handler(req, res);
        return;
      }
      if (stats.bodiesInFlight >= limits.maxBodiesInFlight) {
        stats.refusedBodies += 1;
        res.writeHead(503, {
          'Content-Type': 'application/json; charset=utf-8',
          'Retry-After': String(RETRY_AFTER_S),
          Connection: 'close',
          'Cache-Control': 'no-store',
        });
        res.end(JSON.stringify({ message: BUSY_MESSAGE }));
        return;
      }
      stats.bodiesInFlight += 1;
      let counted = true;
      const done = () => {
        if (!counted) return;
        counted = false;
        stats.bodiesInFlight -= 1;
      };
      req.once('end', done);
      req.once('close', done);
      res.once('close', done);
      handler(req, res);
    };
    wrapped.fastPath = handler.fastPath;
    return wrapped;
  };
  return { wrap, stats };
}

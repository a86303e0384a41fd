import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger.ts';
import {
  AppError,
  INTERNAL_ERROR_MESSAGE,
  STORAGE_READ_UNAVAILABLE_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
  driverErrorCode,
  storageFailureCode,
} from '../shared/errors.ts';
import { requestIdOf } from './request-context.ts';
import type { Locale } from '../shared/i18n/index.ts';
import { localizeMessage } from '../i18n/server-messages.ts';
import { acceptLanguageLocale } from '../i18n/user-locale.ts';
import { errorDetail, errorMessage } from '../ops/error-text.ts';

// Services throw AppError (src/shared/errors.ts); this middleware maps its code to a status and a `{ message }` body.

export { STORAGE_UNAVAILABLE_MESSAGE } from '../shared/errors.ts';

export const apiNotFound: RequestHandler = (req, res) => {
  res
    .status(404)
    .json({ message: localizeMessage('Not found', acceptLanguageLocale(req.headers['accept-language'])) });
};

/** Seconds a client is told to wait after a 503 of ours (storage or a dependency down). */
const RETRY_AFTER_SECONDS = '60';

/** A browser asking for a page (not the API, not an asset): it gets HTML, never raw JSON. */
function wantsPage(req: Request): boolean {
  return !req.originalUrl.startsWith('/api/') && req.accepts(['json', 'html']) === 'html';
}

/**
 * The small page a browser gets while a dependency (database, Redis) is down: dark like the app,
 * self-contained (no script, no asset that could fail too), with Retry-After (issue 29 item 6).
 */
export const OUTAGE_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>CoinSync will be right back</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;background:#313338;color:#dbdee1;font:16px/1.5 system-ui,sans-serif}main{max-width:28rem;padding:2rem;text-align:center}h1{color:#f2f3f5;font-size:1.5rem}a{display:inline-block;margin-top:1rem;padding:.6rem 1.2rem;border-radius:4px;background:#5865f2;color:#fff;text-decoration:none}</style>
</head><body><main><h1>We will be right back</h1>
<p>CoinSync cannot load this page right now (a problem on our side). Your coins and joins are safe.</p>
<p>Please try again in a minute.</p><a href="">Try again</a></main></body></html>
`;

export interface ErrorHandlerOptions {
  /** The signed-in member's stored language, or null (decision 051). Without it: Accept-Language only. */
  storedLocaleOf?: (req: Request) => Promise<Locale | null>;
}

export function errorHandler(logger: Logger, options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  const a: Answering = { logger, options };
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) return logAfterResponse(logger, err, req, res);
    if (err instanceof AppError) {
      // A refusal that knows when to come back (Discord busy, the join pace's 429) says so in Retry-After.
      if (err.status === 503) return sendUnavailable(a, req, res, err.message, err.retryAfterSeconds);
      if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      sendMessage(a, req, res, err.status, err.message);
      return;
    }
    // body-parser and friends signal client mistakes with a 4xx status (e.g. malformed JSON).
    const status = typeof err === 'object' && err && 'status' in err ? Number(err.status) : 0;
    if (status >= 400 && status < 500) {
      const message =
        (err as { type?: string }).type === 'entity.parse.failed' ? 'Malformed JSON body' : 'Bad request';
      sendMessage(a, req, res, status, message);
      return;
    }
    // PostgreSQL refuses a NUL character in text (22021, "invalid byte sequence for encoding"), where
    // SQLite stores it: input a client sent (an id like %00, a name with \u0000), not a bug. Found by
    // src/http/bad-input.test.ts on PostgreSQL. drizzle wraps the driver's error (its `cause`).
    if (driverErrorCode(err) === '22021') {
      sendMessage(a, req, res, 400, 'Text must not contain NUL characters');
      return;
    }
    // The disk is full, read-only or failing, the database is unreachable, or it is locked for too long:
    // not a bug in this request, and retrying later can work. 503, and the operator sees it in the log
    // and /api/ready.
    const storageCode = storageFailureCode(err);
    if (storageCode !== undefined) {
      // A read fails too (PostgreSQL unreachable, a disk error): the line says which it was.
      const read = req.method === 'GET' || req.method === 'HEAD';
      logger.error(read ? 'database read failed; answering 503' : 'database write failed; answering 503', {
        requestId: requestIdOf(res),
        method: req.method,
        path: req.path,
        code: storageCode,
        error: errorMessage(err),
      });
      // A read saved nothing: its message says it could not load (issue 29 item 6).
      sendUnavailable(
        a,
        req,
        res,
        read ? STORAGE_READ_UNAVAILABLE_MESSAGE : STORAGE_UNAVAILABLE_MESSAGE,
        undefined,
        false,
      );
      return;
    }
    logger.error('unhandled error', {
      requestId: requestIdOf(res),
      method: req.method,
      path: req.path,
      error: errorDetail(err),
    });
    sendMessage(a, req, res, 500, INTERNAL_ERROR_MESSAGE, false);
  };
}

/** What the error handler answers with: its logger and how it finds the reader's language. */
interface Answering {
  logger: Logger;
  options: ErrorHandlerOptions;
}

/**
 * An error after the answer went out: express-session failing to save the session once the response
 * ended (disk full at sign-in), a stream that broke. Express's own final handler would print the
 * bare stack to stderr, outside the JSON log and without the request id (issue 29 item 4); it is
 * logged here instead, and the connection cut as Express does when the answer is incomplete.
 */
function logAfterResponse(logger: Logger, err: unknown, req: Request, res: Response): void {
  const storageCode = storageFailureCode(err);
  logger.error(
    storageCode !== undefined
      ? 'database failed after the response was sent'
      : 'error after the response was sent',
    {
      requestId: requestIdOf(res),
      method: req.method,
      path: req.path,
      ...(storageCode !== undefined
        ? { code: storageCode, error: errorMessage(err) }
        : { error: errorDetail(err) }),
    },
  );
  if (!res.writableEnded) req.socket.destroy();
}

/**
 * Sends `{ message }` in the reader's language (decision 051): the member's stored one — not asked
 * when the database is the trouble (`askStore` false), so an outage answer never waits on it — else
 * Accept-Language, else English (the sentence as the service said it).
 */
function sendMessage(
  { logger, options }: Answering,
  req: Request,
  res: Response,
  status: number,
  message: string,
  askStore = true,
): void {
  res.status(status);
  const fromHeader = (): Locale => acceptLanguageLocale(req.headers['accept-language']);
  if (!askStore || !options.storedLocaleOf) {
    res.json({ message: localizeMessage(message, fromHeader()) });
    return;
  }
  options
    .storedLocaleOf(req)
    .catch(() => null)
    .then((stored) => {
      if (!res.headersSent) res.json({ message: localizeMessage(message, stored ?? fromHeader()) });
    })
    .catch((err: unknown) => {
      logger.error('error answer failed', { error: errorMessage(err) });
      if (!res.headersSent) res.json({ message });
    });
}

function sendUnavailable(
  a: Answering,
  req: Request,
  res: Response,
  message: string,
  retryAfterSeconds?: number,
  askStore = true,
): void {
  res.setHeader('Retry-After', String(retryAfterSeconds ?? RETRY_AFTER_SECONDS));
  if (wantsPage(req)) res.status(503).type('html').send(OUTAGE_PAGE);
  else sendMessage(a, req, res, 503, message, askStore);
}

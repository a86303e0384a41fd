import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import {
  AppError,
  INTERNAL_ERROR_MESSAGE,
  STORAGE_UNAVAILABLE_MESSAGE,
  driverErrorCode,
  storageFailureCode,
} from '../shared/errors.ts';
import { requestIdOf } from './request-context.ts';

// Services throw AppError (src/shared/errors.ts); this middleware maps its code to a status and a `{ message }` body.

export { STORAGE_UNAVAILABLE_MESSAGE } from '../shared/errors.ts';

export const apiNotFound: RequestHandler = (_req, res) => {
  res.status(404).json({ message: 'Not found' });
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof AppError) {
      // A refusal that knows when to come back (Discord busy, the join pace's 429) says so in Retry-After.
      if (err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
      res.status(err.status).json({ message: err.message });
      return;
    }
    // body-parser and friends signal client mistakes with a 4xx status (e.g. malformed JSON).
    const status = typeof err === 'object' && err && 'status' in err ? Number(err.status) : 0;
    if (status >= 400 && status < 500) {
      const message =
        (err as { type?: string }).type === 'entity.parse.failed' ? 'Malformed JSON body' : 'Bad request';
      res.status(status).json({ message });
      return;
    }
    // PostgreSQL refuses a NUL character in text (22021, "invalid byte sequence for encoding"), where
    // SQLite stores it: input a client sent (an id like %00, a name with \u0000), not a bug. Found by
    // src/http/bad-input.test.ts on PostgreSQL. drizzle wraps the driver's error (its `cause`).
    if (driverErrorCode(err) === '22021') {
      res.status(400).json({ message: 'Text must not contain NUL characters' });
      return;
    }
    // The disk is full, read-only or failing, the database is unreachable, or it is locked for too long:
    // not a bug in this request, and retrying later can work. 503, and the operator sees it in the log
    // and /api/ready.
    const storageCode = storageFailureCode(err);
    if (storageCode !== undefined) {
      logger.error('database write failed; answering 503', {
        requestId: requestIdOf(res),
        method: req.method,
        path: req.path,
        code: storageCode,
        error: err instanceof Error ? err.message : String(err),
      });
      res.status(503).setHeader('Retry-After', '60').json({ message: STORAGE_UNAVAILABLE_MESSAGE });
      return;
    }
    logger.error('unhandled error', {
      requestId: requestIdOf(res),
      method: req.method,
      path: req.path,
      error: err instanceof Error ? err.stack : String(err),
    });
    res.status(500).json({ message: INTERNAL_ERROR_MESSAGE });
  };
}

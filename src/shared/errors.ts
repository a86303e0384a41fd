// The domain's error: services, the ledger and the bot throw AppError(code, message); the HTTP layer
// (src/http/errors.ts) is the one place that turns a code into a status and a `{ message }` body.
// It lives here, beside the other server-free shared code, so domain modules never import http/.

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  insufficient_coins: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_early: 425,
  rate_limited: 429,
  upstream: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** What any failure that is not the request's fault says (API 500 body, bot command replies). */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

/** The disk is full, read-only or failing, or the database stayed locked: retrying later can work. */
export const STORAGE_UNAVAILABLE_MESSAGE =
  'We cannot save changes right now (a storage problem on our side). Please try again in a few minutes.';

const STORAGE_UNAVAILABLE = /^SQLITE_(FULL|IOERR|READONLY|BUSY|CANTOPEN)/;

/** A better-sqlite3 error code that means "storage trouble", not a bug in the request. */
export function isStorageUnavailable(sqliteCode: string): boolean {
  return STORAGE_UNAVAILABLE.test(sqliteCode);
}

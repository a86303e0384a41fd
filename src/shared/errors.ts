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

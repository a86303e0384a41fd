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
  /** Seconds a client should wait before trying again (sent as `Retry-After` by the HTTP layer). */
  retryAfterSeconds?: number;
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

/** The disk is full, read-only or failing, the database is unreachable or stayed locked: retrying later can work. */
export const STORAGE_UNAVAILABLE_MESSAGE =
  'We cannot save changes right now (a storage problem on our side). Please try again in a few minutes.';

/** The same trouble met by a read (GET): nothing was being saved, so the message does not say so. */
export const STORAGE_READ_UNAVAILABLE_MESSAGE =
  'We cannot load this right now (a storage problem on our side). Please try again in a few minutes.';

/**
 * The first string `code` on an error or its causes: a driver's code (SQLite's `SQLITE_FULL`, a
 * PostgreSQL SQLSTATE, a socket's `ECONNREFUSED`), also when drizzle wrapped it (DrizzleQueryError's
 * `cause`).
 */
export function driverErrorCode(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** The error, then its `cause`, its cause's cause… (at most 5 deep; objects only). */
function* causeChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth += 1) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** better-sqlite3: the disk is full, read-only or failing, or the file stayed locked. */
const SQLITE_STORAGE = /^SQLITE_(FULL|IOERR|READONLY|BUSY|CANTOPEN)/;
/**
 * PostgreSQL SQLSTATEs that are the database's trouble, not the request's: class 08 (connection
 * exception), class 53 (insufficient resources: 53100 disk_full, 53200 out_of_memory, 53300
 * too_many_connections), 57P01-57P03 (administrator or crash shutdown, cannot connect now), 57014 (a
 * statement timeout), class 58 (58030 io_error), 25006 (read_only_sql_transaction: a standby after a
 * failover), and 40001/40P01 still failing after withPgTransaction's retries.
 */
const PG_STORAGE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[1-3]|57014|58[0-9A-Z]{3}|25006|40001|40P01)$/;
/** The database server cannot be reached (node-postgres passes the socket's error on). */
const SOCKET = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/;
/** node-postgres' own errors without a code when a connection is lost, none can be had in time, or a query got no answer in time (query_timeout). */
const PG_CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout)/;

/**
 * What marks `err` as storage trouble (a code, or "connection lost"), or undefined for anything else:
 * retrying later can work, so the API answers 503 and the bot says so (never a 500 for the disk).
 */
export function storageFailureCode(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SQLITE_STORAGE.test(code) || PG_STORAGE.test(code) || SOCKET.test(code)))
      return code;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && PG_CONNECTION_LOST.test(message)) return 'connection lost';
  }
  return undefined;
}

import type { QueryFunction } from '@tanstack/react-query';

let onUnauthorized: (() => void) | null = null;

/**
 * Called whenever an API call answers 401: the session ended (expired, signed out elsewhere, account
 * deleted). The app wires this to "back to the login page with a notice", so no screen ever renders
 * zeros or "Could not load" for a user who is simply no longer signed in.
 */
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

/**
 * A non-2xx answer from the API. `message` keeps docs/spec/product-spec.md §8's text ("<status>: <body or status text>");
 * code reads `status` and `body` (the parsed JSON, or the raw text when the body is not JSON) instead
 * of parsing that text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    text: string,
  ) {
    super(`${status}: ${text}`);
  }

  /** The server's `{ "message": "..." }`, or null when the body carries none. */
  get serverMessage(): string | null {
    const { body } = this;
    if (body && typeof body === 'object' && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message.trim() !== '') return message;
    }
    return null;
  }

  /** Builds the error from a failed response (reads its body). */
  static async from(res: Response): Promise<ApiError> {
    const raw = await res.text().catch(() => '');
    let body: unknown = raw;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        // Not JSON (e.g. a proxy's HTML error page): keep the text.
      }
    }
    return new ApiError(res.status, body, raw || res.statusText);
  }
}

async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  if (res.status === 401) onUnauthorized?.();
  throw await ApiError.from(res);
}

/** Sends a JSON request with the session cookie; throws an ApiError on non-2xx. Returns the raw Response. */
export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest + JSON parsing (an empty body gives undefined). */
export async function apiJson<T>(method: string, url: string, data?: unknown): Promise<T> {
  const res = await apiRequest(method, url, data);
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** Default query function: GET on the query key segments joined by "/" (docs/spec/product-spec.md §7). */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** HTTP status of an ApiError, or null (a network failure, a bug). */
export function errorStatus(err: unknown): number | null {
  return err instanceof ApiError ? err.status : null;
}

/** The server's `{ "message": "..." }` from an ApiError, else `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  return (err instanceof ApiError ? err.serverMessage : null) ?? fallback;
}

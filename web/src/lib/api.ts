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

// Spec §8: any non-2xx response becomes `Error("<status>: <body or status text>")`.
async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  if (res.status === 401) onUnauthorized?.();
  const text = (await res.text()) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

/** Sends a JSON request with the session cookie; throws on non-2xx. Returns the raw Response. */
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

/** Default query function: GET on the query key segments joined by "/". */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T> {
  return async ({ queryKey, signal }) => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include', signal });
    if (options.on401 === 'returnNull' && res.status === 401) return null as T;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** HTTP status of an error thrown by apiRequest/getQueryFn, or null. */
export function errorStatus(err: unknown): number | null {
  if (!(err instanceof Error)) return null;
  const match = /^(\d{3}): /.exec(err.message);
  return match ? Number(match[1]) : null;
}

/**
 * The server's `{ "message": "..." }` from an apiRequest error, else `fallback`.
 * "400: {\"message\":\"Minimum 3 coins required\"}" → "Minimum 3 coins required".
 */
export function errorMessage(err: unknown, fallback: string): string {
  if (!(err instanceof Error)) return fallback;
  const match = /^\d{3}: ([\s\S]*)$/.exec(err.message);
  if (!match?.[1]) return fallback;
  try {
    const body: unknown = JSON.parse(match[1]);
    if (body && typeof body === 'object' && 'message' in body) {
      const { message } = body;
      if (typeof message === 'string' && message.trim() !== '') return message;
    }
  } catch {
    // Not JSON (e.g. a proxy's HTML error page): use the fallback.
  }
  return fallback;
}

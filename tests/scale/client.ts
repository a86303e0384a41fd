import type { ApiUser } from '../../src/shared/api-types.ts';
import { walkSimulatorSignIn } from '../../src/test/harness.ts';

// A member's browser against the scaled-out layout: one cookie jar (the session lives in Redis, so
// any web process accepts it), requests sent to whichever web process the caller names, through the
// reverse proxy the product trusts (TRUST_PROXY=loopback): X-Forwarded-Proto https (the session cookie
// is __Host- and Secure) and the member's own X-Forwarded-For address.

export interface Reply<T = unknown> {
  status: number;
  body: T;
}

let addressCounter = 0;
/** A documentation-range address (198.18.0.0/15, benchmarking) no other member of this process has. */
export function nextForwardedAddress(): string {
  addressCounter += 1;
  return `198.18.${Math.floor(addressCounter / 250)}.${1 + (addressCounter % 250)}`;
}

export class Member {
  readonly cookies = new Map<string, string>();
  user!: ApiUser;

  constructor(
    readonly username: string,
    readonly address = nextForwardedAddress(),
  ) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = {
      'x-forwarded-proto': 'https',
      'x-forwarded-for': this.address,
      ...extra,
    };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return headers;
  }

  private remember(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async raw(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      headers: { ...this.headers(), ...(init.headers as Record<string, string> | undefined) },
      redirect: 'manual',
    });
    this.remember(res);
    return res;
  }

  async request<T = unknown>(base: string, method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const res = await this.raw(`${base}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T };
  }

  get<T = unknown>(base: string, path: string) {
    return this.request<T>(base, 'GET', path);
  }

  post<T = unknown>(base: string, path: string, body?: unknown) {
    return this.request<T>(base, 'POST', path, body ?? {});
  }

  /**
   * Signs in through the real OAuth2 redirects on web process `base` (its PUBLIC_URL is its own
   * address, so the callback comes back to it): product → simulator's authorize (login_hint) → callback.
   */
  async signIn(base: string): Promise<ApiUser> {
    this.user = await walkSimulatorSignIn(
      {
        product: (url) => this.raw(url),
        // The simulator is another site: no cookies of ours go there.
        simulator: (url) => fetch(url, { redirect: 'manual' }),
      },
      base,
      this.username,
    );
    return this.user;
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; resolves with the results in order. */
export async function pool<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

import { signInThroughSimulator, TestClient } from '../../src/test/harness.ts';

// Signs bench users in exactly like a browser: the product's /api/auth/discord, the simulator's
// authorize page (login_hint), the callback. The product runs with NODE_ENV=production behind the
// reverse proxy it trusts (trust proxy 1), so each client says so: X-Forwarded-Proto https (the
// session cookie is Secure) and its own X-Forwarded-For address, which is what the sign-in rate
// limit (30 per minute per client IP) keys on when thousands of real users arrive.

class ProxiedClient extends TestClient {
  constructor(
    baseUrl: string,
    private readonly clientIp: string,
  ) {
    super(baseUrl);
  }

  override raw(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-proto', 'https');
    headers.set('x-forwarded-for', this.clientIp);
    return super.raw(pathOrUrl, { ...init, headers });
  }
}

export interface SignedIn {
  username: string;
  userId: string;
  cookie: string;
}

const ipFor = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

/** Signs everyone in with at most `concurrency` flows in flight; returns one cookie header per user. */
export async function signInAll(
  baseUrl: string,
  usernames: string[],
  concurrency: number,
): Promise<SignedIn[]> {
  const results: SignedIn[] = new Array<SignedIn>(usernames.length);
  let next = 0;
  const worker = async () => {
    while (next < usernames.length) {
      const index = next++;
      const username = usernames[index]!;
      const client = new ProxiedClient(baseUrl, ipFor(index + 1));
      const user = await signInThroughSimulator(client, username);
      results[index] = { username, userId: user.id, cookie: client.cookieHeader };
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, usernames.length) }, worker));
  return results;
}

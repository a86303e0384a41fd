import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.ts';
import { deliveryError } from '../shared/delivery-errors.ts';

// One POST to an owner's endpoint, safe against server-side request forgery (decision 052):
//   - the host name is resolved here and every address it resolves to must be public (loopback,
//     private, link-local, unique-local, multicast… refused, IPv4 and IPv6, mapped forms too);
//   - the connection goes to the address that was checked (the socket's lookup is pinned to it), so a
//     second DNS answer cannot swap in another one (DNS rebinding); TLS still checks the host name;
//   - redirects are never followed (a 3xx is a failed attempt), the whole request has a time limit,
//     and the answer's body is never read: only its status counts.

export interface EndpointAttempt {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Retrying cannot help (the URL leads nowhere we may go). */
  permanent: boolean;
}

export class EndpointRefused extends Error {}

/** The address to connect to: the host's first address when all of them are public. */
export async function resolvePublicAddress(
  hostname: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await dnsLookup(host, { all: true, verbatim: true });
    } catch {
      throw new EndpointRefused('unresolvable');
    }
  }
  if (addresses.length === 0) throw new EndpointRefused('unresolvable');
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address)))
    throw new EndpointRefused('not public');
  return addresses[0]!;
}

export async function postToEndpoint(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number; now?: () => number },
): Promise<EndpointAttempt> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const elapsed = () => Math.round(now() - started);
  const url = new URL(target);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && options.allowPrivate))
    return { statusCode: null, latencyMs: 0, error: deliveryError('httpsOnly'), permanent: true };
  let pinned: { address: string; family: number };
  try {
    pinned = await resolvePublicAddress(url.hostname, options.allowPrivate);
  } catch (err) {
    const why = err instanceof EndpointRefused ? err.message : 'unresolvable';
    return {
      statusCode: null,
      latencyMs: elapsed(),
      error: why === 'not public' ? deliveryError('privateAddress') : deliveryError('unresolvable'),
      permanent: why === 'not public',
    };
  }
  const lookup: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<EndpointAttempt>((resolve) => {
    let settled = false;
    const finish = (result: Omit<EndpointAttempt, 'latencyMs' | 'permanent'> & { permanent?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ permanent: false, ...result, latencyMs: elapsed() });
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        agent: false,
        lookup,
        headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The body is never read or kept: the socket is closed as soon as the status is known.
        res.destroy();
        req.destroy();
        if (status >= 200 && status < 300) finish({ statusCode: status, error: null });
        else if (status >= 300 && status < 400)
          finish({ statusCode: status, error: deliveryError('redirect') });
        else finish({ statusCode: status, error: deliveryError('endpointStatus', { status }) });
      },
    );
    const timer = setTimeout(() => {
      finish({ statusCode: null, error: deliveryError('timeout', { seconds: options.timeoutMs / 1000 }) });
      req.destroy();
    }, options.timeoutMs);
    req.on('error', (err) => {
      finish({ statusCode: null, error: networkError(err) });
    });
    req.end(body);
  });
}

function networkError(err: Error): string {
  const code = (err as { code?: unknown }).code;
  if (code === 'ECONNREFUSED') return deliveryError('connectionRefused');
  if (code === 'ECONNRESET') return deliveryError('connectionReset');
  if ((typeof code === 'string' && code.startsWith('ERR_TLS')) || code === 'DEPTH_ZERO_SELF_SIGNED_CERT')
    return deliveryError('tlsRejected');
  if (code === 'CERT_HAS_EXPIRED') return deliveryError('tlsExpired');
  return typeof code === 'string' ? deliveryError('networkCode', { code }) : deliveryError('network');
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The endpoint's signature (decision 052), in the shape top.gg and Stripe use: the header
// `X-CoinSync-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the secret>`.
// The timestamp is signed with the body, so a receiver that refuses old timestamps refuses replays.

/** Replays older than this are refused by verifySignature. */
export const SIGNATURE_TOLERANCE_S = 300;

/** A new signing secret: shown to the owner once, stored encrypted. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export function signatureHeader(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** What a receiver does (and what the docs show): true when the header signs this body, recently. */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowMs: number,
  toleranceS = SIGNATURE_TOLERANCE_S,
): boolean {
  const parts = new Map(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const;
    }),
  );
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceS || !/^[0-9a-f]{64}$/.test(v1))
    return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

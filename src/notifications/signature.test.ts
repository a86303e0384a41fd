import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './public-address.ts';
import { newSigningSecret, signatureHeader, verifySignature } from './signature.ts';

// Decision 052: the endpoint's signature and the address rule, on their own.

describe('endpoint signature (t=…,v1=…)', () => {
  const secret = newSigningSecret();
  const body = JSON.stringify({ id: 'evt_1', type: 'test' });
  const now = Date.UTC(2026, 0, 1, 12);

  it('is HMAC-SHA256 of "<t>.<body>" under the secret, t in unix seconds', () => {
    const header = signatureHeader(secret, body, now);
    const t = now / 1000;
    const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(header).toBe(`t=${t},v1=${v1}`);
    expect(verifySignature(secret, header, body, now)).toBe(true);
  });

  it('refuses another body, another secret, an old timestamp and garbage', () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature(secret, header, `${body} `, now)).toBe(false);
    expect(verifySignature(newSigningSecret(), header, body, now)).toBe(false);
    expect(verifySignature(secret, header, body, now + 301_000)).toBe(false);
    expect(verifySignature(secret, 't=abc,v1=00', body, now)).toBe(false);
    expect(verifySignature(secret, '', body, now)).toBe(false);
  });

  it('makes a new secret each time, never shorter than 32 characters', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(newSigningSecret()).not.toBe(a);
  });
});

describe('public addresses only', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['1.1.1.1', '8.8.8.8', '172.32.0.1', '::ffff:8.8.8.8', '2606:4700:4700::1111', '2a00:1450::1'])(
    'accepts %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it('refuses what is not an address at all', () => {
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

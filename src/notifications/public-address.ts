import { isIP } from 'node:net';

// Which addresses an owner's endpoint may lead to (decision 052): public unicast only. Loopback,
// private, carrier-grade NAT, link-local, unique-local, multicast, documentation and reserved ranges
// are refused, on IPv4 and IPv6, including IPv4 written inside IPv6 (mapped ::ffff:a.b.c.d, the
// deprecated compatible ::a.b.c.d, NAT64 64:ff9b::/96 and 6to4 2002::/16).

const V4_BLOCKED: [number, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
].map(([base, bits]) => [v4ToInt(base as string), bits as number]);

function v4ToInt(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function isPublicV4(address: string): boolean {
  const n = v4ToInt(address);
  return !V4_BLOCKED.some(
    ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
  );
}

/** The 16 bytes of an IPv6 address (zone id dropped), or null when it is not one. */
export function v6Bytes(input: string): number[] | null {
  const address = input.replace(/%.*$/, '');
  if (isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parts = (s: string) => (s === '' ? [] : s.split(':'));
  const left = parts(head);
  const right = rest === undefined ? [] : parts(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => parseInt(g, 16));
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function isPublicV6(address: string): boolean {
  const b = v6Bytes(address);
  if (!b) return false;
  const v4 = (from: number) => b.slice(from, from + 4).join('.');
  const zeros = (n: number) => b.slice(0, n).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible; also :: and ::1): judged as the IPv4 inside,
  // and the compatible form is refused anyway (no one serves on it).
  if (zeros(10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(v4(12));
  if (zeros(12)) return false;
  // NAT64 64:ff9b::/96 and 6to4 2002::/16 carry an IPv4 address a gateway would reach.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b) return isPublicV4(v4(12));
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4(v4(2));
  if (b[0]! >= 0xfc && b[0]! <= 0xfd) return false; // fc00::/7 unique local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return false; // fe80::/10 link-local
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0xc0) return false; // fec0::/10 site-local (deprecated)
  if (b[0] === 0xff) return false; // ff00::/8 multicast
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false; // 2001:db8::/32 documentation
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] === 0x00) return false; // 2001::/32 Teredo
  if (b[0] === 0x01 && b.slice(1, 8).every((x) => x === 0)) return false; // 100::/64 discard
  // Global unicast is 2000::/3; anything else is reserved.
  return (b[0]! & 0xe0) === 0x20;
}

/** Whether an endpoint may be reached at this address (a literal IPv4 or IPv6 address). */
export function isPublicAddress(address: string): boolean {
  const kind = isIP(address.replace(/%.*$/, ''));
  if (kind === 4) return isPublicV4(address);
  if (kind === 6) return isPublicV6(address);
  return false;
}

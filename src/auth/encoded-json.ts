import { createHash } from 'node:crypto';
import type { AppBoot } from '../shared/api-types.ts';

// An API answer that its route already holds as JSON bytes (Discover's shared first page and featured
// list: src/joins/discover-list.ts encodes them once per catalogue change, the same Buffer for every
// member who sees them). A page inlines these very bytes (decision 047, session 16): before, each page
// load parsed them (~40 kB), serialised them again, escaped, masked and hashed the result for the page's
// keys, and hashed it again to find its compressed fragment. One EncodedJson per Buffer (a WeakMap on
// the Buffer the list holds), so what a page load derives from it is derived once per catalogue change.

/** What a page's render key needs of a part: its JSON with the live figures masked, and those figures. */
export interface MaskedPart {
  /** SHA-1 (base64) of the masked JSON. */
  digest: string;
  /** The live figures in their order (page-cache.ts), '' when none. */
  live: string;
}

export class EncodedJson {
  /** The bytes as a page inlines them: `<` escaped, so no value can close the boot element. */
  readonly escaped: Buffer;
  private masked: MaskedPart | undefined;
  /** The escaped bytes raw-deflated (page-gzip.ts), once. */
  fragment: Promise<Buffer> | undefined;

  constructor(readonly json: Buffer) {
    this.escaped = json.includes(0x3c) ? Buffer.from(json.toString('utf8').replace(/</g, '\\u003c')) : json;
  }

  /** The escaped JSON as text (not kept: a page load needs only the digest and the bytes). */
  get escapedText(): string {
    return this.escaped.toString('utf8');
  }

  /** The data, parsed (for the render worker and the rare load that is served uncompressed). */
  value(): unknown {
    return JSON.parse(this.json.toString('utf8'));
  }

  /** The part's masked digest and live figures, computed by `mask` once for this data. */
  maskedWith(mask: (json: string) => { masked: string; live: string }): MaskedPart {
    if (!this.masked) {
      const { masked, live } = mask(this.escapedText);
      this.masked = { digest: createHash('sha1').update(masked).digest('base64'), live };
    }
    return this.masked;
  }
}

const known = new WeakMap<Buffer, EncodedJson>();

/** The one EncodedJson of these bytes (the same object for the same Buffer). */
export function encodedJson(json: Buffer): EncodedJson {
  let found = known.get(json);
  if (!found) {
    found = new EncodedJson(json);
    known.set(json, found);
  }
  return found;
}

const wrapped = new WeakMap<Buffer, { around: string; json: EncodedJson }>();

/**
 * `before + json + after` as one EncodedJson, kept with `json` while `before` and `after` stay the same
 * (Discover's first page inside the infinite query's `{ pages: [{ servers, next }], pageParams }`).
 */
export function encodedAround(before: string, json: Buffer, after: string): EncodedJson {
  const around = `${before}\n${after}`;
  const found = wrapped.get(json);
  if (found && found.around === around) return found.json;
  const made = new EncodedJson(Buffer.concat([Buffer.from(before), json, Buffer.from(after)]));
  wrapped.set(json, { around, json: made });
  return made;
}

/** The boot with every EncodedJson data parsed: what the render worker takes and JSON.stringify writes. */
export function plainBoot(boot: AppBoot): AppBoot {
  const queries = boot.queries;
  if (!queries?.some((q) => q.data instanceof EncodedJson)) return boot;
  return {
    ...boot,
    queries: queries.map((q) => (q.data instanceof EncodedJson ? { key: q.key, data: q.data.value() } : q)),
  };
}

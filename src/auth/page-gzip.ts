import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { EncodedJson } from './encoded-json.ts';

// A cached page is kept gzip-compressed (decision 047). Its boot data sits between the rendered markup
// and the closing scripts; when only the data changes (Discover's invite counts, which its server markup
// does not show: page-cache.ts), the page is the same markup with other data. The page's gzip is built
// from three raw-deflate parts, the first two ended with a sync flush (a byte boundary, no reference
// across parts), so the data's part can be swapped: the header and the markup's part are reused as they
// are, only the data (tens of kB) and the closing scripts (a few hundred bytes) are compressed again,
// and the trailer's CRC-32 continues from the markup's. RFC 1952: one member, valid for every client.

const deflateRaw = promisify(zlib.deflateRaw);

/** gzip's 10-byte header: deflate, no flags, no time, no extra flags, OS Unix (as zlib.gzip writes). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** What a page's gzip needs to take other data in place of its own. */
export interface DataSlot {
  /** Bytes of the gzip before the data's part: the header and the markup's part. */
  headEnd: number;
  /** CRC-32 and length of the uncompressed markup before the data. */
  headCrc: number;
  headLength: number;
  /** The page after the data (uncompressed; a few hundred bytes). */
  tail: Buffer;
}

export interface SplitGzip {
  gzip: Buffer;
  slot: DataSlot;
}

function trailer(crc: number, length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(crc >>> 0, 0);
  out.writeUInt32LE(length % 2 ** 32, 4);
  return out;
}

/** CRC-32 of `bytes` continued from `crc` (zlib.crc32 answers 0 for some empty buffers: none asked). */
function crcAfter(crc: number, bytes: Buffer): number {
  return bytes.length === 0 ? crc : zlib.crc32(bytes, crc);
}

/**
 * The page's data in parts (their concatenation is the data); a part of at least SHARED_PART_BYTES is
 * compressed once for every page that inlines it (session 15): Discover's first page and featured list are
 * the same answer for most members, and after a join or a count refresh each member's next load swaps in
 * new data, which would otherwise deflate the same ~40 kB once per member.
 */
export type DataParts = string | readonly (string | EncodedJson)[];

/** Smallest part worth a look-up in the shared fragments (a hash of it costs less than compressing it). */
export const SHARED_PART_BYTES = 4096;
/** Bytes of shared compressed fragments kept (outside the JS heap), least recently used first out. */
export const SHARED_FRAGMENT_BYTES = 4 * 1024 * 1024;

const fragments = new Map<string, Buffer>();
let fragmentBytes = 0;
/** Fragments being compressed: the loads that arrive together after a change share one deflate. */
const deflating = new Map<string, Promise<Buffer>>();

function keepFragment(key: string, deflated: Buffer): void {
  if (fragments.has(key)) return;
  fragments.set(key, deflated);
  fragmentBytes += deflated.length;
  for (const [oldest, evicted] of fragments) {
    if (fragmentBytes <= SHARED_FRAGMENT_BYTES) break;
    fragments.delete(oldest);
    fragmentBytes -= evicted.length;
  }
}

/** One part raw-deflated and sync-flushed: it refers to nothing before it, so it fits any page. */
function sharedFragment(part: Buffer): Promise<Buffer> {
  const key = createHash('sha1').update(part).digest('base64');
  const known = fragments.get(key);
  if (known) {
    fragments.delete(key);
    fragments.set(key, known);
    return Promise.resolve(known);
  }
  let pending = deflating.get(key);
  if (!pending) {
    pending = deflateRaw(part, { finishFlush: zlib.constants.Z_SYNC_FLUSH })
      .then((deflated) => {
        keepFragment(key, deflated);
        return deflated;
      })
      .finally(() => deflating.delete(key));
    deflating.set(key, pending);
  }
  return pending;
}

/**
 * `bytes` as deflate stored blocks (RFC 1951 3.2.4: a byte-aligned header, LEN and its complement, the
 * bytes as they are), the last one final when `final`. For the few hundred bytes between and after the
 * data: a zlib stream costs more to set up than these bytes cost on the wire (session 15: a swap set up
 * four, ~0.2 ms each). The parts before end on a byte boundary (sync flush), as a stored block must start.
 */
function stored(bytes: Buffer, final: boolean): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length || blocks.length === 0; at += 0xffff) {
    const chunk = bytes.subarray(at, at + 0xffff);
    const header = Buffer.alloc(5);
    header[0] = final && at + 0xffff >= bytes.length ? 1 : 0;
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return Buffer.concat(blocks);
}

/**
 * The data's compressed parts: large parts from the shared fragments, the runs of small ones between.
 * An EncodedJson part (an API answer's own bytes, one object while the answer is unchanged) keeps its
 * fragment itself: no hash of its bytes per page load.
 */
async function deflateData(data: readonly (Buffer | EncodedJson)[]): Promise<Buffer[]> {
  const out: Promise<Buffer>[] = [];
  let small: Buffer[] = [];
  const flushSmall = () => {
    if (small.length === 0) return;
    const run = Buffer.concat(small);
    out.push(
      run.length < SHARED_PART_BYTES
        ? Promise.resolve(stored(run, false))
        : deflateRaw(run, { finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    );
    small = [];
  };
  for (const part of data) {
    if (part instanceof EncodedJson) {
      flushSmall();
      out.push((part.fragment ??= sharedFragment(part.escaped)));
    } else if (part.length >= SHARED_PART_BYTES) {
      flushSmall();
      out.push(sharedFragment(part));
    } else small.push(part);
  }
  flushSmall();
  return Promise.all(out);
}

async function finish(prefix: Buffer, slot: DataSlot, data: DataParts): Promise<Buffer> {
  const given = (typeof data === 'string' ? [data] : data).map((part) =>
    typeof part === 'string' ? Buffer.from(part) : part,
  );
  const dataParts = await deflateData(given);
  const parts = given.map((part) => (part instanceof EncodedJson ? part.escaped : part));
  const tailPart =
    slot.tail.length < SHARED_PART_BYTES ? stored(slot.tail, true) : zlib.deflateRawSync(slot.tail);
  let crc = slot.headCrc;
  let length = slot.headLength + slot.tail.length;
  for (const part of parts) {
    crc = crcAfter(crc, part);
    length += part.length;
  }
  crc = crcAfter(crc, slot.tail);
  return Buffer.concat([prefix, ...dataParts, tailPart, trailer(crc, length)]);
}

/**
 * The beginning of a page's gzip compressed before the rest of the page is known (session 16: a page
 * whose render is awaited is streamed, this part sent first): the gzip header and `text`, sync-flushed.
 */
export interface GzipStart {
  bytes: Buffer;
  crc: number;
  length: number;
}

export async function gzipStart(text: string): Promise<GzipStart> {
  const raw = Buffer.from(text);
  const part = await deflateRaw(raw, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { bytes: Buffer.concat([HEADER, part]), crc: crcAfter(0, raw), length: raw.length };
}

/**
 * The page `head + data + tail`, gzip-compressed in parts so that `data` can be swapped later; after
 * `start` when given (the page is then `start`'s text + head + data + tail, its gzip begins with
 * `start.bytes`).
 */
export async function gzipSplit(
  head: string,
  data: DataParts,
  tail: string,
  start?: GzipStart,
): Promise<SplitGzip> {
  const headBytes = Buffer.from(head);
  const headPart = await deflateRaw(headBytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const prefix = Buffer.concat([start?.bytes ?? HEADER, headPart]);
  const slot: DataSlot = {
    headEnd: prefix.length,
    headCrc: crcAfter(start?.crc ?? 0, headBytes),
    headLength: (start?.length ?? 0) + headBytes.length,
    tail: Buffer.from(tail),
  };
  return { gzip: await finish(prefix, slot, data), slot };
}

/** The same page with `data` in place of its own: only the data and the tail are compressed. */
export function withData(gzip: Buffer, slot: DataSlot, data: DataParts): Promise<Buffer> {
  return finish(gzip.subarray(0, slot.headEnd), slot, data);
}

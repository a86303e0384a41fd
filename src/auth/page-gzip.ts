import { promisify } from 'node:util';
import zlib from 'node:zlib';

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

async function finish(prefix: Buffer, slot: DataSlot, data: Buffer): Promise<Buffer> {
  const dataPart = await deflateRaw(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const tailPart = zlib.deflateRawSync(slot.tail);
  const crc = crcAfter(crcAfter(slot.headCrc, data), slot.tail);
  return Buffer.concat([
    prefix,
    dataPart,
    tailPart,
    trailer(crc, slot.headLength + data.length + slot.tail.length),
  ]);
}

/** The page `head + data + tail`, gzip-compressed in parts so that `data` can be swapped later. */
export async function gzipSplit(head: string, data: string, tail: string): Promise<SplitGzip> {
  const headBytes = Buffer.from(head);
  const headPart = await deflateRaw(headBytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const prefix = Buffer.concat([HEADER, headPart]);
  const slot: DataSlot = {
    headEnd: prefix.length,
    headCrc: crcAfter(0, headBytes),
    headLength: headBytes.length,
    tail: Buffer.from(tail),
  };
  return { gzip: await finish(prefix, slot, Buffer.from(data)), slot };
}

/** The same page with `data` in place of its own: only the data and the tail are compressed. */
export function withData(gzip: Buffer, slot: DataSlot, data: string): Promise<Buffer> {
  return finish(gzip.subarray(0, slot.headEnd), slot, Buffer.from(data));
}

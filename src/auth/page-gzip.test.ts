import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { gzipSplit, SHARED_PART_BYTES, withData } from './page-gzip.ts';

// Browsers inflate a cached page with zlib (or a decoder as strict): the parts must make one valid gzip
// member whose CRC-32 and length are the whole page's, before and after its data is swapped.
describe('a page gzip-compressed in parts (decision 047, session 14)', () => {
  const head = '<!doctype html><html lang="de"><head><title>Entdecken – Münzen</title></head><body>'.repeat(
    200,
  );
  const tail = '<script type="module" src="/assets/index.js"></script></body></html>';
  const data = (n: number) =>
    `<script type="application/json" id="app-boot">${JSON.stringify({ n, servers: Array.from({ length: 300 }, (_, i) => ({ id: i, memberCount: i * n, name: `Gilde ${i} ✓` })) })}</script>`;

  it('inflates to the whole page, and to the page with other data once that is swapped in', async () => {
    const page = await gzipSplit(head, data(1), tail);
    expect(zlib.gunzipSync(page.gzip).toString()).toBe(head + data(1) + tail);
    const swapped = await withData(page.gzip, page.slot, data(7));
    expect(zlib.gunzipSync(swapped).toString()).toBe(head + data(7) + tail);
    // Swapping again from the swapped page: the markup's part is reused as it is.
    const again = await withData(swapped, page.slot, data(2));
    expect(zlib.gunzipSync(again).toString()).toBe(head + data(2) + tail);
    expect(again.subarray(0, page.slot.headEnd).equals(page.gzip.subarray(0, page.slot.headEnd))).toBe(true);
  });

  it('is one gzip member with a checked trailer: a corrupted byte is an error, not another page', async () => {
    const page = await gzipSplit(head, data(3), tail);
    expect(page.gzip.subarray(0, 3)).toEqual(Buffer.from([0x1f, 0x8b, 8]));
    const broken = Buffer.from(page.gzip);
    broken[broken.length - 8]! ^= 1; // the CRC-32
    expect(() => zlib.gunzipSync(broken)).toThrow();
    // Compressed to about what one zlib.gzip of the page is.
    expect(page.gzip.length).toBeLessThan(zlib.gzipSync(head + data(3) + tail).length * 1.2);
  });

  it('keeps an empty data part and an empty tail valid', async () => {
    const page = await gzipSplit('<p>x</p>', '', '');
    expect(zlib.gunzipSync(page.gzip).toString()).toBe('<p>x</p>');
    expect(zlib.gunzipSync(await withData(page.gzip, page.slot, 'y')).toString()).toBe('<p>x</p>y');
  });

  it('inflates pages whose data is in parts, a large part compressed once for every page that inlines it (session 15)', async () => {
    const shared = JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `Gilde ${i} ✓` })));
    expect(shared.length).toBeGreaterThan(SHARED_PART_BYTES);
    const parts = (who: string) => [`<script id="app-boot">{"user":"${who}","data":`, shared, '}</script>'];
    const a = await gzipSplit(head, parts('ann'), tail);
    const b = await gzipSplit('<main>other</main>', parts('bob'), tail);
    expect(zlib.gunzipSync(a.gzip).toString()).toBe(head + parts('ann').join('') + tail);
    expect(zlib.gunzipSync(b.gzip).toString()).toBe('<main>other</main>' + parts('bob').join('') + tail);
    const swapped = await withData(a.gzip, a.slot, [
      parts('cid')[0]!,
      shared.replace('Gilde 7', 'Gilde 8'),
      '}',
    ]);
    expect(zlib.gunzipSync(swapped).toString()).toBe(
      head + parts('cid')[0] + shared.replace('Gilde 7', 'Gilde 8') + '}' + tail,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createPageCache, liveFieldsMasked, pageKey } from './page-cache.ts';

const page = (bytes: number, status = 200) => ({
  gzip: Buffer.alloc(bytes),
  status,
  dataKey: '',
  slot: null,
});

describe('the page cache (decision 047)', () => {
  it('keys a page by its URL and every byte of its boot data', () => {
    const boot = JSON.stringify({ user: { id: 'u1', coins: '5.00' }, queries: [] });
    expect(pageKey('/daily', boot)).toBe(pageKey('/daily', boot));
    expect(pageKey('/daily', boot)).not.toBe(pageKey('/daily?x=1', boot));
    expect(pageKey('/daily', boot)).not.toBe(pageKey('/daily', boot.replace('5.00', '5.50')));
    // The separator keeps a URL's end from passing for the data's start.
    expect(pageKey('/a', 'b')).not.toBe(pageKey('/a\nb', ''));
  });

  it('drops the least recently used pages once over its size, and never keeps one larger than itself', () => {
    const cache = createPageCache(100);
    cache.set('a', page(40));
    cache.set('b', page(40));
    expect(cache.get('a')?.gzip.length).toBe(40); // a is now the most recently used
    cache.set('c', page(40));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.bytes).toBe(80);
    cache.set('a', page(10, 404)); // replacing a page counts its new size only
    expect(cache.bytes).toBe(50);
    expect(cache.get('a')?.status).toBe(404);
    cache.set('huge', page(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.bytes).toBe(50);
  });

  it("masks Discover's invite counts out of a page's render inputs, and nothing else", () => {
    const card = (members: number | null, online: number | null, description = 'Hi') =>
      JSON.stringify({
        queries: [
          {
            key: ['/api/servers'],
            data: [{ id: 'c1', memberCount: members, onlineCount: online, description }],
          },
        ],
      });
    expect(liveFieldsMasked(card(120, 7))).toBe(liveFieldsMasked(card(130, 9)));
    expect(liveFieldsMasked(card(null, null))).toBe(liveFieldsMasked(card(130, 9)));
    expect(liveFieldsMasked(card(120, 7))).not.toBe(liveFieldsMasked(card(120, 7, 'Other')));
    // A balance or any other number is not a count.
    const user = JSON.stringify({ user: { coins: '5.00', memberCount: 3 } });
    expect(liveFieldsMasked(user)).toBe(user);
  });
});

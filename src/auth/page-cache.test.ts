import { describe, expect, it } from 'vitest';
import { createPageCache, pageKey, pageKeys, pageKeysOf } from './page-cache.ts';
import { encodedJson } from './encoded-json.ts';

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

  it("keys Discover's render without its invite counts, and its data with them; nothing else is masked", () => {
    const card = (members: number | null, online: number | null, description = 'Hi') =>
      JSON.stringify({
        queries: [
          {
            key: ['/api/servers'],
            data: [{ id: 'c1', memberCount: members, onlineCount: online, description }],
          },
        ],
      });
    const keys = (json: string) => pageKeys('/', json);
    expect(keys(card(120, 7)).render).toBe(keys(card(130, 9)).render);
    expect(keys(card(null, null)).render).toBe(keys(card(130, 9)).render);
    expect(keys(card(120, 7)).data).not.toBe(keys(card(130, 9)).data);
    expect(keys(card(120, 7)).data).not.toBe(keys(card(12, 7)).data);
    expect(keys(card(0, 0)).data).not.toBe(keys(card(null, null)).data);
    expect(keys(card(120, 7)).data).toBe(keys(card(120, 7)).data);
    expect(keys(card(120, 7)).render).not.toBe(keys(card(120, 7, 'Other')).render);
    // A page without counts: one key, the page's own; a balance or any other number is not a count.
    const user = JSON.stringify({ user: { coins: '5.00', memberCount: 3 } });
    expect(keys(user)).toEqual({ render: pageKey('/', user), data: pageKey('/', user) });
    expect(keys(user).data).not.toBe(keys(user.replace('5.00', '5.50')).data);
  });

  it("keys Discover's render without its campaigns' remaining slots beyond 0 or more, and nothing else's (session 15)", () => {
    // As discover-list.ts writes an ApiDiscoverServer, and a campaign of the Dashboard (no counts after it).
    const discoverCard = (left: number) =>
      `{"id":"c1","membersRemaining":${left},"initialMemberSlots":50,"isFeatured":true,"completionNotificationSent":false,"createdAt":"2026-01-01T00:00:00.000Z","targeting":{"minAccountAgeDays":null,"language":null},"memberCount":120,"onlineCount":7,"description":null}`;
    const campaign = (left: number) =>
      `{"id":"c1","membersRemaining":${left},"initialMemberSlots":50,"isFeatured":true,"completionNotificationSent":false,"createdAt":"2026-01-01T00:00:00.000Z","targeting":{"minAccountAgeDays":null,"language":null},"joinCount":3}`;
    const keys = (json: string) => pageKeys('/', `{"queries":[${json}]}`);
    expect(keys(discoverCard(40)).render).toBe(keys(discoverCard(39)).render);
    expect(keys(discoverCard(40)).data).not.toBe(keys(discoverCard(39)).data);
    expect(keys(discoverCard(40)).data).toBe(keys(discoverCard(40)).data);
    // Full: the Featured section leaves the campaign out, so the page looks different.
    expect(keys(discoverCard(0)).render).not.toBe(keys(discoverCard(1)).render);
    // Two cards whose figures trade places are two different data.
    const two = (a: number, b: number) => keys(`${discoverCard(a)},${discoverCard(b)}`);
    expect(two(40, 39).render).toBe(two(39, 40).render);
    expect(two(40, 39).data).not.toBe(two(39, 40).data);
    // The Dashboard shows a campaign's remaining slots: its page is keyed by them.
    expect(keys(campaign(40)).render).not.toBe(keys(campaign(39)).render);
  });

  it("keys a boot in parts, an API answer's own bytes masked once, as it keys the whole text (session 16)", () => {
    const card = (members: number, name = 'A') =>
      `{"id":"c1","name":"${name}","memberCount":${members},"onlineCount":3,"isMine":false}`;
    const keys = (members: number, user = 'u1', name = 'A') =>
      pageKeysOf('/', [
        `{"user":"${user}","queries":[{"data":`,
        encodedJson(Buffer.from(`[${card(members, name)}]`)),
        ']}',
      ]);
    // Counts: the same render, other data; the same bytes twice: the same keys.
    expect(keys(10).render).toBe(keys(20).render);
    expect(keys(10).data).not.toBe(keys(20).data);
    expect(keys(10)).toEqual(keys(10));
    // What the markup shows, in the bytes or in the text around them, changes the render key.
    expect(keys(10, 'u1', 'B').render).not.toBe(keys(10).render);
    expect(keys(10, 'u2').render).not.toBe(keys(10).render);
    // The bytes' place holds their digest between NULs: no text (JSON has no raw NUL) passes for it.
    const text = pageKeysOf('/', [`{"user":"u1","queries":[{"data":[${card(10)}]}]}`]);
    expect(text.render).not.toBe(keys(10).render);
    expect(text).toEqual(pageKeys('/', `{"user":"u1","queries":[{"data":[${card(10)}]}]}`));
  });
});

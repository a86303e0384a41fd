import { createHash } from 'node:crypto';
import type { DataSlot } from './page-gzip.ts';
import type { EncodedJson } from './encoded-json.ts';

// Server-rendered pages by what they were rendered from (decision 047). A page's HTML is a pure function
// of its URL and its boot data (the session's user, the public config and the page's first data, the
// API's answers for that user): the same inputs give the same bytes, so a page is rendered once per
// (URL, data version) and served from here until its data changes, which changes the key. Nothing is
// invalidated; the least recently used pages go first when the cache is over its size. Pages are kept
// gzip-compressed (what browsers ask for, and a sixth of the size), outside the JavaScript heap.

export interface CachedPage {
  /** The whole page, gzip-compressed. */
  gzip: Buffer;
  status: number;
  /**
   * The key of the exact boot data inlined in `gzip` (pageKey of the unmasked boot). The cache holds the
   * page under its render key (pageKeys); when a load's data differs only in live fields, the
   * page's markup is still right and only its boot data is swapped for the load's (spa-pages.ts).
   */
  dataKey: string;
  /** Where the boot data sits in `gzip` (page-gzip.ts), to swap it without compressing the markup again. */
  slot: DataSlot | null;
}

export interface PageCache {
  get(key: string): CachedPage | undefined;
  set(key: string, page: CachedPage): void;
  readonly bytes: number;
}

// Discover's live figures change while its list does not, and its server markup shows none of them
// (decision 047, sessions 14 and 15):
// - the invite counts (ApiDiscoverServer's memberCount and onlineCount, in that order: the list encodes them
//   so, src/joins/discover-list.ts) change with every invite-stats refresh; the cards show them only once
//   hydrated (web/src/features/discover/server-card.tsx);
// - a campaign's membersRemaining changes with every verified join; a featured card shows it ("12 members
//   left") only once hydrated, the others not at all, and the page itself only asks whether it is above 0
//   (the Featured section leaves out full campaigns), so the render key keeps 0 or 1.
// Masked out of the render key, a refresh or a join does not force a render of every member's Discover.
const LIVE_COUNTS = '"memberCount":(?:-?\\d+|null),"onlineCount":(?:-?\\d+|null)';
/**
 * membersRemaining of an ApiDiscoverServer only: the fields that follow it up to its memberCount, as
 * discover-list.ts's toDiscoverServer writes them (a campaign of Dashboard or My Campaigns has no
 * memberCount and shows its remaining slots: never masked).
 */
const DISCOVER_REMAINING =
  '"membersRemaining":(\\d+)(?=,"initialMemberSlots":\\d+,"isFeatured":(?:true|false),' +
  '"completionNotificationSent":(?:true|false),"createdAt":"[^"]*","targeting":\\{[^{}]*\\},"memberCount":)';
const LIVE = new RegExp(`${DISCOVER_REMAINING}|${LIVE_COUNTS}`, 'g');

/** The JSON with its live figures masked, and the figures in their order ('' when none). */
export function maskLive(json: string): { masked: string; live: string } {
  let live = '';
  const masked = json.replace(LIVE, (figures, remaining: string | undefined) => {
    if (remaining === undefined) {
      live += figures;
      return '"memberCount":0,"onlineCount":0';
    }
    live += `r${remaining};`;
    return `"membersRemaining":${remaining === '0' ? 0 : 1}`;
  });
  return { masked, live };
}

/**
 * A page's two keys from its URL and boot data's JSON: `render`, of everything its server markup shows
 * (the JSON with the live figures masked), and `data`, of everything it inlines (that and the live
 * figures in their order, which with the masked JSON give back the whole). Equal when the data has no
 * live figures. One hash over the JSON either way.
 */
export function pageKeys(url: string, bootJson: string): { render: string; data: string } {
  return pageKeysOf(url, [bootJson]);
}

/**
 * pageKeys of a boot element in parts (spa-pages.ts's bootScriptParts; no live figure spans two parts:
 * each is within one card, and each query's data is a part of its own). A text part is masked and hashed
 * with the rest; an EncodedJson part (an API answer's own bytes, the same object while that answer is
 * unchanged) is masked and hashed once, and enters the key by its digest between NULs, which no JSON text
 * holds, so parts cannot be confused with text. With one text part, the key is pageKeys's.
 */
export function pageKeysOf(
  url: string,
  parts: readonly (string | EncodedJson)[],
): { render: string; data: string } {
  const hash = createHash('sha1').update(url).update('\n');
  let live = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      const masked = maskLive(part);
      hash.update(masked.masked);
      live += masked.live;
    } else {
      const masked = part.maskedWith(maskLive);
      hash.update(`\0${masked.digest}\0`);
      live += masked.live;
    }
  }
  const render = hash.digest('base64');
  return { render, data: live ? render + createHash('sha1').update(live).digest('base64') : render };
}

/** The cache key of a page: its URL and everything it is rendered from. */
export function pageKey(url: string, bootJson: string): string {
  return createHash('sha1').update(url).update('\n').update(bootJson).digest('base64');
}

/** Bytes a cached page holds outside the heap: its gzip and the page's end kept for a data swap. */
function sizeOf(page: CachedPage): number {
  return page.gzip.length + (page.slot?.tail.length ?? 0);
}

/** A cache of at most `maxBytes` of compressed pages (config PAGE_CACHE_MB). */
export function createPageCache(maxBytes: number): PageCache {
  // A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first.
  const pages = new Map<string, CachedPage>();
  let bytes = 0;
  return {
    get(key) {
      const page = pages.get(key);
      if (page) {
        pages.delete(key);
        pages.set(key, page);
      }
      return page;
    },
    set(key, page) {
      const old = pages.get(key);
      if (old) {
        bytes -= sizeOf(old);
        pages.delete(key);
      }
      if (sizeOf(page) > maxBytes) return;
      pages.set(key, page);
      bytes += sizeOf(page);
      for (const [oldest, evicted] of pages) {
        if (bytes <= maxBytes) break;
        pages.delete(oldest);
        bytes -= sizeOf(evicted);
      }
    },
    get bytes() {
      return bytes;
    },
  };
}

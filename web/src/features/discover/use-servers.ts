import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import { apiRequest } from '../../lib/api.ts';

import { serverKeys } from '../../lib/query-keys.ts';

export interface DiscoverPage {
  servers: ApiDiscoverServer[];
  /** URL of the next page (the response's Link rel="next"), or null on the last page. */
  next: string | null;
}

function nextLink(res: Response): string | null {
  const link = res.headers.get('link');
  return link ? (/<([^>]+)>;\s*rel="next"/.exec(link)?.[1] ?? null) : null;
}

export function discoverUrl(search: string): string {
  return search ? `/api/servers?q=${encodeURIComponent(search)}` : '/api/servers';
}

/**
 * GET /api/servers in pages (featured first, then newest): campaigns the member can still join, own
 * regular ones and joined ones excluded. `search` runs on the server over every campaign.
 */
export function useServers(search: string) {
  return useInfiniteQuery({
    ...discoverPagesQuery(search),
    // A new search keeps the current cards until its answer arrives: nothing jumps while typing.
    placeholderData: keepPreviousData,
  });
}

/** The query behind useServers (also started at boot on Discover, web/src/lib/early-data.ts). */
export function discoverPagesQuery(search: string) {
  return infiniteQueryOptions({
    queryKey: serverKeys.pages(search),
    initialPageParam: discoverUrl(search),
    queryFn: async ({ pageParam }): Promise<DiscoverPage> => {
      const res = await apiRequest('GET', pageParam);
      return { servers: (await res.json()) as ApiDiscoverServer[], next: nextLink(res) };
    },
    getNextPageParam: (last) => last.next,
  });
}

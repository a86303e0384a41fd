import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import { apiJson } from '../../lib/api.ts';
import { serverKeys } from '../../lib/query-keys.ts';

/** GET /api/servers/featured: every active featured campaign, the member's own included. */
export function useFeaturedServers(search: string) {
  return useQuery({ ...featuredServersQuery(search), placeholderData: keepPreviousData });
}

/** The query behind useFeaturedServers (also started at boot on Discover, web/src/lib/early-data.ts). */
export function featuredServersQuery(search: string) {
  return queryOptions({
    queryKey: serverKeys.featured(search),
    queryFn: () =>
      apiJson<ApiDiscoverServer[]>(
        'GET',
        search ? `/api/servers/featured?q=${encodeURIComponent(search)}` : '/api/servers/featured',
      ),
  });
}

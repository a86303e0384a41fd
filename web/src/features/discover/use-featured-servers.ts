import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ApiDiscoverServer } from '@shared/api-types.ts';
import { apiJson } from '../../lib/api.ts';
import { SERVERS_KEY } from './use-servers.ts';

/** GET /api/servers/featured: every active featured campaign, the member's own included. */
export const FEATURED_SERVERS_KEY = [...SERVERS_KEY, 'featured'] as const;

export function useFeaturedServers(search: string) {
  return useQuery({
    queryKey: [...FEATURED_SERVERS_KEY, search],
    queryFn: () =>
      apiJson<ApiDiscoverServer[]>(
        'GET',
        search ? `/api/servers/featured?q=${encodeURIComponent(search)}` : '/api/servers/featured',
      ),
    placeholderData: keepPreviousData,
  });
}

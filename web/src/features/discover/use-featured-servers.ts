import { useQuery } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';
import { SERVERS_KEY } from './use-servers.ts';

/** GET /api/servers/featured: every active featured campaign, the member's own included. */
export const FEATURED_SERVERS_KEY = [...SERVERS_KEY, 'featured'] as const;

export function useFeaturedServers() {
  return useQuery<ApiServer[]>({ queryKey: FEATURED_SERVERS_KEY });
}

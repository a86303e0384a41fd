import { useQuery } from '@tanstack/react-query';
import type { ApiServer } from '@shared/api-types.ts';

/** Prefix of both server lists: invalidating it refetches Discover and the featured list. */
export const SERVERS_KEY = ['/api/servers'] as const;

/** GET /api/servers: campaigns the member can still join (own regular ones and joined ones excluded). */
export function useServers() {
  return useQuery<ApiServer[]>({ queryKey: SERVERS_KEY });
}

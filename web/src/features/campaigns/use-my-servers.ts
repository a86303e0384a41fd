import { useQuery } from '@tanstack/react-query';
import type { ApiMyServer } from '@shared/campaign-schemas.ts';
import { MY_SERVERS_KEY } from './query-keys.ts';

/** GET /api/servers/mine: every server the user submitted (Dashboard). */
export function useMyServers() {
  return useQuery<ApiMyServer[]>({ queryKey: MY_SERVERS_KEY });
}

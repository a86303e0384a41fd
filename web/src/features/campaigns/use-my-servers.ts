import { useQuery } from '@tanstack/react-query';
import type { ApiMyServer } from '@shared/campaign-schemas.ts';
import { campaignKeys } from '../../lib/query-keys.ts';

/** GET /api/servers/mine: every server the user submitted (Dashboard). */
export function useMyServers() {
  return useQuery<ApiMyServer[]>({ queryKey: campaignKeys.myServers() });
}

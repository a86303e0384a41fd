import { useQuery } from '@tanstack/react-query';
import type { ApiCampaign } from '@shared/api-types.ts';
import { campaignKeys } from '../../lib/query-keys.ts';

/** GET /api/campaigns: the signed-in user's active campaigns, newest first. */
export function useCampaigns() {
  return useQuery<ApiCampaign[]>({ queryKey: campaignKeys.list() });
}

import { useQuery } from '@tanstack/react-query';
import type { ApiSocialTask } from '@shared/api-types.ts';

export const SOCIAL_TASKS_KEY = ['/api/social'] as const;

/** GET /api/social: never served from cache (spec §7), so `completed` is always fresh. */
export function useSocialTasks() {
  return useQuery<ApiSocialTask[]>({ queryKey: SOCIAL_TASKS_KEY, staleTime: 0, refetchOnMount: 'always' });
}

import { useQuery } from '@tanstack/react-query';
import type { ApiSocialTask } from '@shared/api-types.ts';

import { socialKeys } from '../../lib/query-keys.ts';

/** GET /api/social: never served from cache (docs/spec/product-spec.md §7), so `completed` is always fresh. */
export function useSocialTasks() {
  return useQuery<ApiSocialTask[]>({ queryKey: socialKeys.list(), staleTime: 0, refetchOnMount: 'always' });
}

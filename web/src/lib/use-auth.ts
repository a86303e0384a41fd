import { useQuery } from '@tanstack/react-query';
import type { ApiUser, PublicConfig } from '@shared/api-types.ts';
import { ApiError } from './api.ts';
import { authKeys } from './query-keys.ts';

/** The signed-in user's query key (authKeys.user()); the 401 handler and the balance use it. */
export const AUTH_USER_KEY = authKeys.user();

/** The signed-in user, or null when signed out (a failed auth call also counts as signed out). */
export function useAuth(): { user: ApiUser | null; isLoading: boolean } {
  const { data, isLoading } = useQuery<ApiUser | null>({
    queryKey: AUTH_USER_KEY,
    // ?optional=1: the server answers null when signed out instead of a 401, so a signed-out visit
    // logs no failed request in the console. A 401 (older server) still means signed out.
    queryFn: async ({ signal }) => {
      const res = await fetch(`${AUTH_USER_KEY[0]}?optional=1`, { credentials: 'include', signal });
      if (res.status === 401) return null;
      if (!res.ok) throw await ApiError.from(res);
      return (await res.json()) as ApiUser | null;
    },
  });
  return { user: data ?? null, isLoading };
}

/** Public, non-secret settings from the server (product name, Stripe publishable key, support URL). */
export function usePublicConfig(): { config: PublicConfig | undefined; isLoading: boolean } {
  const { data, isLoading } = useQuery<PublicConfig>({ queryKey: authKeys.config() });
  return { config: data, isLoading };
}

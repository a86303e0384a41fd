import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiUser, PublicConfig } from '@shared/api-types.ts';
import { apiRequest, errorMessage } from './api.ts';
import { toast } from './toaster.tsx';

export const AUTH_USER_KEY = ['/api/auth/user'] as const;
export const CONFIG_KEY = ['/api/config'] as const;

/** The signed-in user, or null when signed out (a failed auth call also counts as signed out). */
export function useAuth(): { user: ApiUser | null; isLoading: boolean } {
  const { data, isLoading } = useQuery<ApiUser | null>({
    queryKey: AUTH_USER_KEY,
    // ?optional=1: the server answers null when signed out instead of a 401, so a signed-out visit
    // logs no failed request in the console. A 401 (older server) still means signed out.
    queryFn: async ({ signal }) => {
      const res = await fetch(`${AUTH_USER_KEY[0]}?optional=1`, { credentials: 'include', signal });
      if (res.status === 401) return null;
      if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
      return (await res.json()) as ApiUser | null;
    },
  });
  return { user: data ?? null, isLoading };
}

export function useLogout() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/logout'),
    onSuccess: () => {
      queryClient.clear();
      window.location.href = '/';
    },
    onError: (err) => {
      toast({ title: 'Error', description: errorMessage(err, 'Failed to log out'), variant: 'destructive' });
    },
  });
  return { logout: () => mutation.mutate(), isPending: mutation.isPending };
}

/** Public, non-secret settings from the server (product name, Stripe publishable key, support URL). */
export function usePublicConfig(): { config: PublicConfig | undefined; isLoading: boolean } {
  const { data, isLoading } = useQuery<PublicConfig>({ queryKey: CONFIG_KEY });
  return { config: data, isLoading };
}

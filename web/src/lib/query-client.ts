import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api.ts';

// Spec §9: cached data never goes stale, no refetch on focus, no polling, no automatic retries.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});

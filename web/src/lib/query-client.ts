import { QueryClient } from '@tanstack/react-query';
import { getQueryFn, setUnauthorizedHandler } from './api.ts';
import { markSessionEnded } from './session-ended.ts';
import { AUTH_USER_KEY } from './use-auth.ts';

// Product spec (docs/spec/product-spec.md) §9: cached data never goes stale, no refetch on focus, no polling, no automatic retries.
// A factory so the server renders each page with a client of its own (web/src/entry-server.tsx).
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

/** The browser's one query client. */
export const queryClient = createQueryClient();

// A 401 from any call while signed in: drop every cached answer (nothing may show stale or zero
// values) and mark the user signed out; <App> then renders the login page with the notice.
setUnauthorizedHandler(() => {
  if (!queryClient.getQueryData(AUTH_USER_KEY)) return;
  markSessionEnded();
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== AUTH_USER_KEY[0] });
  queryClient.setQueryData(AUTH_USER_KEY, null);
});

import type { QueryClient } from '@tanstack/react-query';
import { featuredServersQuery } from './features/discover/use-featured-servers.ts';
import { discoverPagesQuery } from './features/discover/use-servers.ts';
import { campaignKeys, transactionKeys } from './lib/query-keys.ts';

/**
 * The first data a signed-in page shows, requested at boot: in parallel with the page's code instead of
 * after it has downloaded and rendered a first time. Same keys and query functions as the pages' hooks,
 * so the pages find the answers (or the requests in flight) in the cache.
 */
export function startEarlyData(queryClient: QueryClient, pathname: string): Promise<unknown> {
  // Prefetches never reject: a failed one leaves the page to show its own error state.
  switch (pathname) {
    case '/':
      return Promise.all([
        queryClient.prefetchInfiniteQuery(discoverPagesQuery('')),
        queryClient.prefetchQuery(featuredServersQuery('')),
      ]);
    case '/dashboard':
      return Promise.all([
        queryClient.prefetchQuery({ queryKey: campaignKeys.myServers() }),
        queryClient.prefetchQuery({ queryKey: transactionKeys.summary() }),
        queryClient.prefetchQuery({ queryKey: transactionKeys.recent() }),
      ]);
    default:
      return Promise.resolve();
  }
}

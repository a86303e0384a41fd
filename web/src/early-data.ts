import type { QueryClient } from '@tanstack/react-query';
import { pageDataFor, type PageDataSource } from '@shared/page-data.ts';
import { featuredServersQuery } from './features/discover/use-featured-servers.ts';
import { discoverPagesQuery } from './features/discover/use-servers.ts';

/**
 * Sources whose query is not a plain GET of its key (the default query function): Discover's lists have
 * query definitions of their own; History's page reads a header, so its hook fetches it (null).
 */
const CUSTOM: Partial<Record<PageDataSource, ((queryClient: QueryClient) => Promise<unknown>) | null>> = {
  discoverFirstPage: (queryClient) => queryClient.prefetchInfiniteQuery(discoverPagesQuery('')),
  discoverFeatured: (queryClient) => queryClient.prefetchQuery(featuredServersQuery('')),
  historyFirstPage: null,
};

/**
 * The first data a signed-in page shows (declared once per route in src/shared/page-data.ts), requested
 * ahead of the page: at boot when the server did not render the page, and when a navigation starts
 * (routed-app.tsx), in parallel with the page's code instead of after it has downloaded and rendered a
 * first time. Same keys and query functions as the pages' hooks, so the pages find the answers (or the
 * requests in flight) in the cache; cached answers are not asked again (the cache never goes stale).
 */
export function startEarlyData(queryClient: QueryClient, pathname: string): Promise<unknown> {
  // Prefetches never reject: a failed one leaves the page to show its own error state.
  return Promise.all(
    pageDataFor(pathname).map(({ source, key }) => {
      const custom = CUSTOM[source];
      if (custom === null) return Promise.resolve();
      return custom ? custom(queryClient) : queryClient.prefetchQuery({ queryKey: key });
    }),
  );
}

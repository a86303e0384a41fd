import { useQueryClient } from '@tanstack/react-query';
import { pageDataFor } from '@shared/page-data.ts';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Starts fetching a page's first data (src/shared/page-data.ts) as soon as a navigation reaches it, so the
 * data and the page's chunk download side by side instead of one after the other. The first page needs
 * nothing: its data came with the HTML (boot data). Keys of one segment are plain API paths the default
 * query function GETs; the others (Discover's pages, History's page) are left to their own hooks.
 */
export function PageDataPrefetch(): null {
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    for (const { key } of pageDataFor(pathname))
      if (key.length === 1) void queryClient.prefetchQuery({ queryKey: key });
  }, [pathname, queryClient]);
  return null;
}

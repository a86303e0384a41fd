import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ApiUser } from '@shared/api-types.ts';
import type { LiveEvent } from '@shared/live-events.ts';
import { authKeys, campaignKeys, joinKeys, transactionKeys } from '../../lib/query-keys.ts';
import { toast } from '../../lib/toaster.tsx';
import { liveEventToast } from './live-toast.ts';
import { wasClaimedHere } from '../../lib/claimed-here.ts';
import { usePageHydrated } from '../../lib/page-hydrated.ts';

/** Lists a live event can change: refetched if on screen (an event, not polling). */
const AFFECTED: readonly QueryKey[] = [
  transactionKeys.all(),
  joinKeys.list(),
  campaignKeys.list(),
  campaignKeys.myServers(),
];
/** After the server refused the stream (e.g. 503), try again after this long, doubling up to a minute. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;

/**
 * One Server-Sent Events connection per tab (GET /api/events, issue 12 item 7): each event updates the
 * header balance in the react-query cache and shows a toast. The browser reconnects a dropped stream by
 * itself with Last-Event-ID; a stream the server refused is reopened here with the last id as a query
 * parameter, so missed events are replayed either way.
 */
export function useLiveEvents(userId: string): void {
  const queryClient = useQueryClient();
  // An event before the page hydrated would change the balance it is hydrating (lib/page-hydrated.ts).
  const pageHydrated = usePageHydrated();
  useEffect(() => {
    if (!pageHydrated || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let lastEventId = '';
    let retryMs = FIRST_RETRY_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    // The stream dropped (the server restarted, the network went away): once it is open again, every
    // query that failed meanwhile is fetched again, so error panels recover by themselves.
    let lost = false;

    const onMessage = (message: MessageEvent<string>) => {
      retryMs = FIRST_RETRY_MS;
      if (message.lastEventId) lastEventId = message.lastEventId;
      let event: LiveEvent;
      try {
        event = JSON.parse(message.data) as LiveEvent;
      } catch {
        return;
      }
      if ('balance' in event) {
        const balance = event.balance;
        queryClient.setQueryData<ApiUser | null>(authKeys.user(), (user) =>
          user ? { ...user, coins: balance } : user,
        );
      }
      // A no-bot reward this tab claimed itself was toasted already; other tabs toast it.
      if (!(event.type === 'nobot_reward' && wasClaimedHere(event.campaignId))) toast(liveEventToast(event));
      for (const queryKey of AFFECTED) void queryClient.invalidateQueries({ queryKey });
    };

    const connect = () => {
      const url = lastEventId ? `/api/events?lastEventId=${encodeURIComponent(lastEventId)}` : '/api/events';
      source = new EventSource(url);
      source.onopen = () => {
        retryMs = FIRST_RETRY_MS;
        if (!lost) return;
        lost = false;
        void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' });
      };
      source.onmessage = onMessage;
      source.onerror = () => {
        lost = true;
        // CONNECTING: the browser retries by itself. CLOSED: it gave up (non-200 answer): retry later.
        if (!source || source.readyState !== EventSource.CLOSED || stopped) return;
        source.close();
        timer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      };
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
    };
  }, [userId, queryClient, pageHydrated]);
}

import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiJoinPace } from '@shared/api-types.ts';
import { joinKeys } from '../../lib/query-keys.ts';

/**
 * GET /api/joins/pace (decision 038): when the member may join the next server. Under My Joins' key,
 * so every refetch after a join or claim refreshes it too.
 */
export const joinPaceKey = () => [...joinKeys.list(), 'pace'] as const;

export function useJoinPace() {
  return useQuery<ApiJoinPace>({ queryKey: joinPaceKey() });
}

/**
 * Milliseconds until the next join is allowed (0 = now), counting down from the server's answer on
 * this browser's clock (the server says how long, not when, so a wrong clock does not matter). Ticks
 * every second while waiting and asks again when the wait is over.
 */
export function useNextJoinWait(): { waitMs: number; pace: ApiJoinPace | undefined } {
  const pace = useJoinPace();
  const waitSeconds = pace.data?.waitSeconds ?? 0;
  const fetchedAt = pace.dataUpdatedAt;
  const remaining = () => Math.max(0, waitSeconds * 1000 - (Date.now() - fetchedAt));
  const [wait, setWait] = useState(remaining);
  const { refetch } = pace;
  useEffect(() => {
    setWait(remaining());
    if (waitSeconds <= 0) return;
    const timer = setInterval(() => {
      const left = remaining();
      setWait(left);
      if (left <= 0) {
        clearInterval(timer);
        void refetch();
      }
    }, 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- remaining() reads only these two
  }, [waitSeconds, fetchedAt, refetch]);
  return { waitMs: wait, pace: pace.data };
}

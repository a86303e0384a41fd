import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiJson } from '../../lib/api.ts';
import { refetchAfterChange } from '../../lib/refetch-after-change.ts';

// Issue 26: without Discord's Server Members intent no gateway event says a member arrived, so the
// site asks when the member comes back from an invite (the tab becomes visible or the window regains
// focus): POST /api/joins/check looks their pending joins up now and pays what is due. Only after a
// join opened an invite, for a while; the server also limits a member's checks.

/** A join opened an invite this long ago at most: coming back then is worth a check. */
const WATCH_MS = 30 * 60_000;
/** Focus and visibility events come in pairs: one check for both. */
const MIN_GAP_MS = 3_000;

let openedAt = 0;
let lastCheck = 0;

/** Called when a bot-campaign join was recorded and its invite opened. */
export function noteInviteOpened(): void {
  openedAt = Date.now();
}

/** Mounted once in the signed-in shell. */
export function useCheckJoinsOnReturn(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const onReturn = () => {
      if (document.visibilityState !== 'visible') return;
      const now = Date.now();
      if (now - openedAt > WATCH_MS || now - lastCheck < MIN_GAP_MS) return;
      lastCheck = now;
      apiJson<{ verified: unknown[] }>('POST', '/api/joins/check').then(
        (result) => {
          // The balance and the toast also come as live events; the lists refetch here.
          if (result.verified.length > 0) void refetchAfterChange(queryClient);
        },
        () => undefined, // best effort: the background sweep verifies the join anyway
      );
    };
    document.addEventListener('visibilitychange', onReturn);
    window.addEventListener('focus', onReturn);
    return () => {
      document.removeEventListener('visibilitychange', onReturn);
      window.removeEventListener('focus', onReturn);
    };
  }, [queryClient]);
}

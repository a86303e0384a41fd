import { useEffect, useSyncExternalStore } from 'react';
import { nobotClaimKind } from './features/discover/nobot-claim-kind.ts';
import { socialClaimKind } from './features/social/social-claim-kind.ts';
import { DelayedClaims, NO_PENDING_CLAIMS, type PendingClaim } from './lib/delayed-claims.ts';
import { usePageHydrated } from './lib/page-hydrated.ts';

export type ClaimKindName = 'nobot' | 'social';

/**
 * The app's one delayed-claim scheduler (lib/delayed-claims.ts), shared by no-bot joins and social
 * tasks. It lives for the whole tab, so a claim started on one page fires on whichever page is open.
 */
export const delayedClaims = new DelayedClaims<ClaimKindName>({
  nobot: nobotClaimKind,
  social: socialClaimKind,
});

/**
 * Mounted once by the signed-in shell: resumes this member's stored claims on page load (docs/spec/product-spec.md §4), once
 * the page has hydrated. When
 * the shell goes (sign-out, an ended session) the timers stop; the stored claims wait for the next visit.
 */
export function useResumeDelayedClaims(userId: string): void {
  // A claim paid before the page hydrated would change the balance it is hydrating (lib/page-hydrated.ts).
  const pageHydrated = usePageHydrated();
  useEffect(() => {
    if (!pageHydrated) return;
    delayedClaims.resume(userId);
    return () => delayedClaims.stop();
  }, [userId, pageHydrated]);
}

/**
 * The pending claims of one kind, re-rendering when they change. The server knows none (they live in
 * the browser's storage): a server-rendered page hydrates without them, then shows this browser's. The
 * same empty array as the scheduler's, so a browser with none pending does not render the page again.
 */
export function usePendingClaims(kind: ClaimKindName): readonly PendingClaim[] {
  return useSyncExternalStore(
    (listener) => delayedClaims.subscribe(listener),
    () => delayedClaims.pending(kind),
    () => NO_PENDING_CLAIMS,
  );
}

import { SOCIAL_CLAIM_DELAY_MS } from '@shared/social-constants.ts';

// Pending social claims survive reloads in localStorage (spec §3: taskId + claimAt timestamp).

export interface PendingSocialClaim {
  taskId: string;
  /** Epoch ms from which the server accepts the completion (its `claimableAt`). */
  claimAt: number;
}

const storageKey = (userId: string) => `coinsync:pending-social-claims:${userId}`;

export function readPendingClaims(userId: string): PendingSocialClaim[] {
  try {
    const raw = window.localStorage.getItem(storageKey(userId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (item): item is PendingSocialClaim =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as PendingSocialClaim).taskId === 'string' &&
        Number.isFinite((item as PendingSocialClaim).claimAt),
    );
  } catch {
    return [];
  }
}

export function writePendingClaims(userId: string, claims: PendingSocialClaim[]): void {
  try {
    if (claims.length === 0) window.localStorage.removeItem(storageKey(userId));
    else window.localStorage.setItem(storageKey(userId), JSON.stringify(claims));
  } catch {
    // Storage full or disabled: the claim still runs in this tab, it just won't survive a reload.
  }
}

/**
 * Milliseconds to wait before trying a claim. The browser's clock may disagree with the server's, so
 * the wait never exceeds the claim delay itself; an early attempt is refused by the server and retried.
 */
export function delayUntil(claimAt: number, now: number): number {
  return Math.min(Math.max(0, claimAt - now), SOCIAL_CLAIM_DELAY_MS);
}

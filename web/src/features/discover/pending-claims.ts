// Pending no-bot claims in browser storage (spec §3 "Pending no-bot claim"): `{ serverId, claimAt }`.
// Kept per signed-in user so one account never claims with another's entries on a shared browser.

export interface PendingClaim {
  serverId: string;
  /** Epoch ms (browser clock) from which the claim is due. */
  claimAt: number;
}

const PREFIX = 'coinsync:pending-nobot-claims:';

function storageKey(userId: string): string {
  return `${PREFIX}${userId}`;
}

function isPendingClaim(value: unknown): value is PendingClaim {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.serverId === 'string' &&
    v.serverId !== '' &&
    typeof v.claimAt === 'number' &&
    Number.isFinite(v.claimAt)
  );
}

/** Stored claims; anything unreadable (private mode, a hand-edited value) counts as none. */
export function readPendingClaims(userId: string): PendingClaim[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(storageKey(userId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPendingClaim) : [];
  } catch {
    return [];
  }
}

function writePendingClaims(userId: string, claims: PendingClaim[]): void {
  try {
    if (claims.length === 0) window.localStorage.removeItem(storageKey(userId));
    else window.localStorage.setItem(storageKey(userId), JSON.stringify(claims));
  } catch {
    // Storage full or disabled: the claim still runs in this tab, it just won't survive a reload.
  }
}

export function savePendingClaim(userId: string, claim: PendingClaim): void {
  writePendingClaims(userId, [
    ...readPendingClaims(userId).filter((c) => c.serverId !== claim.serverId),
    claim,
  ]);
}

export function removePendingClaim(userId: string, serverId: string): void {
  writePendingClaims(
    userId,
    readPendingClaims(userId).filter((c) => c.serverId !== serverId),
  );
}

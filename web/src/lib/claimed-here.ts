// No-bot rewards claimed from this tab, for a short while: the tab already showed its own "Coins Earned!"
// toast, so the live event of the same claim (which every tab of the member receives) only updates the
// balance here instead of toasting twice.

const REMEMBER_MS = 60_000;
const claimed = new Map<string, number>();

export function markClaimedHere(campaignId: string, now = Date.now()): void {
  for (const [id, at] of claimed) if (now - at > REMEMBER_MS) claimed.delete(id);
  claimed.set(campaignId, now);
}

export function wasClaimedHere(campaignId: string, now = Date.now()): boolean {
  const at = claimed.get(campaignId);
  return at !== undefined && now - at <= REMEMBER_MS;
}

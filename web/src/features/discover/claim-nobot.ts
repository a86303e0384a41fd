import type { ClaimNoBotResponse } from '@shared/join-schemas.ts';
import { apiJson } from '../../lib/api.ts';

/** POST /api/servers/:id/claim-nobot (called by the pending-claim scheduler, not from a button). */
export function claimNoBot(serverId: string): Promise<ClaimNoBotResponse> {
  return apiJson<ClaimNoBotResponse>('POST', `/api/servers/${encodeURIComponent(serverId)}/claim-nobot`);
}

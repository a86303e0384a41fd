import type { BotMissingBody } from '@shared/campaign-schemas.ts';
import { ApiError } from '../../lib/api.ts';

/** The bot invite URL from a failed submit whose 400 body says `botMissing`, else null. */
export function botMissingInviteUrl(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const body = err.body as Partial<BotMissingBody> | null;
  return body && typeof body === 'object' && body.botMissing === true && typeof body.inviteUrl === 'string'
    ? body.inviteUrl
    : null;
}

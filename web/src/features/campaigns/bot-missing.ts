import type { BotMissingBody } from '@shared/campaign-schemas.ts';

/** The bot invite URL from a failed submit whose body says `botMissing`, else null. */
export function botMissingInviteUrl(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const match = /^400: ([\s\S]*)$/.exec(err.message);
  if (!match?.[1]) return null;
  try {
    const body = JSON.parse(match[1]) as Partial<BotMissingBody>;
    return body.botMissing === true && typeof body.inviteUrl === 'string' ? body.inviteUrl : null;
  } catch {
    return null;
  }
}

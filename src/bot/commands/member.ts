import type { AppContext } from '../../context.ts';
import { botRepo } from '../bot-repo.ts';
import type { Member } from './types.ts';

/** The website account of a Discord user, or null if they never signed in on the website. */
export async function findMember(ctx: AppContext, discordId: string): Promise<Member | null> {
  const userId = await botRepo(ctx.store.read).findUserIdByDiscordId(discordId);
  return userId ? { userId, discordId } : null;
}

import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import { users } from '../../db/schema.ts';
import type { Member } from './types.ts';

/** The website account of a Discord user, or null if they never signed in on the website. */
export function findMember(ctx: AppContext, discordId: string): Member | null {
  const row = ctx.db.select({ id: users.id }).from(users).where(eq(users.discordId, discordId)).get();
  return row ? { userId: row.id, discordId } : null;
}

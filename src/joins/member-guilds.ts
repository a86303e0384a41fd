// member_guilds (decision 038): the member's Discord guild list as last read with their token.

/** A member's Discord guild list as last read with their token (member_guilds). */
export interface MemberGuilds {
  guildIds: string[];
  premiumType: number | null;
  fetchedAt: number;
}

/** member_guilds.guild_ids: comma-separated ids ('' for none). */
export function parseGuildIds(text: string): string[] {
  return text === '' ? [] : text.split(',');
}

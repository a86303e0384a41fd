/**
 * Fixed ids and invite codes for the demo world, so the app's demo seed can point at the
 * same simulated guilds across restarts.
 */
export interface DemoUser {
  id: string;
  username: string;
  globalName: string;
}

export interface DemoGuild {
  id: string;
  name: string;
  ownerId: string;
  inviteCode: string;
  /** Whether the bot is in this guild after seeding (false shows the Invite Bot flow). */
  botMember: boolean;
  /** Usernames of members besides the owner. */
  memberUsernames: readonly string[];
  /** The guild's description, shown on Discover cards through the invite. */
  description?: string;
}

export const DEMO_USERS = [
  { id: '100000000000000001', username: 'alex', globalName: 'Alex' },
  { id: '100000000000000002', username: 'sam', globalName: 'Sam' },
  { id: '100000000000000003', username: 'jordan', globalName: 'Jordan' },
  { id: '100000000000000004', username: 'riley', globalName: 'Riley' },
  { id: '100000000000000005', username: 'casey', globalName: 'Casey' },
] as const satisfies readonly DemoUser[];

const [alex, sam, jordan] = DEMO_USERS;

export const DEMO_GUILDS = [
  {
    id: '200000000000000001',
    name: 'Pixel Raiders',
    description: 'Co-op raids every night, friendly squads for every skill level.',
    ownerId: alex.id,
    inviteCode: 'pixel-raiders',
    botMember: true,
    memberUsernames: ['sam', 'riley'],
  },
  {
    id: '200000000000000002',
    name: 'Lo-fi Lounge',
    description: 'Beats to study and relax to, plus a weekly listening party.',
    ownerId: sam.id,
    inviteCode: 'lo-fi-lounge',
    botMember: true,
    memberUsernames: ['jordan', 'casey'],
  },
  {
    id: '200000000000000003',
    name: 'Code Crafters',
    description: 'Help with code reviews, side projects and your first open-source PR.',
    ownerId: jordan.id,
    inviteCode: 'code-crafters',
    botMember: true,
    memberUsernames: ['alex', 'riley'],
  },
  {
    id: '200000000000000004',
    name: 'Anime Haven',
    description: 'Seasonal watch-alongs, fan art and spoiler-free discussion.',
    ownerId: alex.id,
    inviteCode: 'anime-haven',
    botMember: true,
    memberUsernames: ['casey'],
  },
  {
    id: '200000000000000005',
    name: 'Indie Devs Hub',
    ownerId: sam.id,
    inviteCode: 'indie-devs-hub',
    botMember: false,
    memberUsernames: ['jordan'],
  },
  {
    id: '200000000000000006',
    name: 'Chill Gaming',
    ownerId: jordan.id,
    inviteCode: 'chill-gaming',
    botMember: true,
    memberUsernames: ['sam', 'riley', 'casey'],
  },
] as const satisfies readonly DemoGuild[];

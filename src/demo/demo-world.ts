import type { CampaignKind } from '../shared/campaign-kinds.ts';
import type { SocialPlatform } from '../shared/social-constants.ts';
import { DEFAULT_SOCIAL_TASK_CENTS } from '../shared/social-constants.ts';
import { DEMO_GUILDS, DEMO_USERS } from '../sim/discord/demo-data.ts';

// What demo mode lists on first start: which simulated guild runs which kind of campaign, and the
// social tasks. The guilds and users themselves are the simulator's (src/sim/discord/demo-data.ts).

const [pixel, lofi, code, anime, indie, chill] = DEMO_GUILDS;
const riley = DEMO_USERS[3];

/** A guild without our bot, added to the simulator's world for the second no-bot campaign. */
export const RETRO_GUILD = {
  id: '200000000000000101',
  channelId: '300000000000000101',
  name: 'Retro Arcade Club',
  ownerId: riley.id,
  inviteCode: 'retro-arcade',
  memberUsernames: ['casey'],
} as const;

export interface DemoCampaign {
  guild: { id: string; name: string; ownerId: string; inviteCode: string };
  kind: CampaignKind;
  /** Member slots bought (a featured campaign gets the promotion's slots). */
  slots: number;
}

/** Listed oldest first, so the last one is the newest on Discover. */
export const DEMO_CAMPAIGNS: readonly DemoCampaign[] = [
  { guild: RETRO_GUILD, kind: 'nobot', slots: 12 },
  { guild: indie, kind: 'nobot', slots: 20 },
  { guild: chill, kind: 'regular', slots: 15 },
  { guild: anime, kind: 'regular', slots: 40 },
  { guild: code, kind: 'regular', slots: 25 },
  { guild: lofi, kind: 'featured', slots: 0 },
  { guild: pixel, kind: 'featured', slots: 0 },
];

/** Demo owners start with this many coins on top of the welcome bonus (hundredths). */
export const DEMO_COINS_CENTS = 50_000;

export const DEMO_SOCIAL_TASKS: readonly {
  platform: SocialPlatform;
  title: string;
  url: string;
  coins: number;
}[] = [
  {
    platform: 'youtube',
    title: 'Subscribe to our YouTube channel',
    url: 'https://www.youtube.com/@coinsync',
    coins: DEFAULT_SOCIAL_TASK_CENTS,
  },
  {
    platform: 'discord',
    title: 'Join our Discord community',
    url: 'https://discord.gg/coinsync-support',
    coins: DEFAULT_SOCIAL_TASK_CENTS,
  },
  {
    platform: 'tiktok',
    title: 'Follow us on TikTok',
    url: 'https://www.tiktok.com/@coinsync',
    coins: DEFAULT_SOCIAL_TASK_CENTS,
  },
  {
    platform: 'instagram',
    title: 'Follow us on Instagram',
    url: 'https://www.instagram.com/coinsync',
    coins: DEFAULT_SOCIAL_TASK_CENTS,
  },
  {
    platform: 'twitter',
    title: 'Follow us on Twitter',
    url: 'https://twitter.com/coinsync',
    coins: DEFAULT_SOCIAL_TASK_CENTS,
  },
];

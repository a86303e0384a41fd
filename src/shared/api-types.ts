// Response shapes of the JSON API, shared by the server (which builds them) and the web app.
// Money fields are "12.50" strings; timestamps are ISO strings.

export interface ApiUser {
  id: string;
  discordId: string;
  discordUsername: string;
  discordAvatar: string | null;
  /** Full CDN URL of the avatar, or null (the UI falls back to the initial). */
  avatarUrl: string | null;
  coins: string;
  createdAt: string;
}

export interface PublicConfig {
  productName: string;
  demoMode: boolean;
  stripePublishableKey: string | null;
  supportUrl: string;
}

export interface ApiServer {
  id: string;
  ownerId: string;
  name: string;
  inviteLink: string;
  serverId: string | null;
  serverIcon: string | null;
  /** Full CDN URL of the guild icon, or null. */
  iconUrl: string | null;
  coinReward: string;
  membersRemaining: number;
  initialMemberSlots: number;
  isFeatured: boolean;
  completionNotificationSent: boolean;
  createdAt: string;
}

/** What an owner sees about a campaign's health (My Campaigns, Dashboard). */
export interface ApiCampaignHealth {
  /** Our bot was removed from the guild: the campaign is paused (off Discover) until it is invited again. */
  botRemoved: boolean;
  /** The completion DM could not be delivered (the owner's DMs are closed or they share no server with the bot). */
  ownerUnreachable: boolean;
}

export interface ApiCampaign extends ApiServer, ApiCampaignHealth {
  joinCount: number;
  /** When paused (botRemoved): the link that adds the bot back to this guild. */
  botInviteUrl: string | null;
}

export interface ApiTransaction {
  id: string;
  userId: string;
  amount: string;
  type: string;
  description: string | null;
  createdAt: string;
}

export interface ApiSocialTask {
  id: string;
  platform: string;
  title: string;
  url: string;
  coins: string;
  createdAt: string;
  completed: boolean;
}

export interface RewardStatus {
  canClaimRegular: boolean;
  canClaimBonus: boolean;
  canClaimDaily: boolean;
  regularHoursRemaining: number;
  bonusHoursRemaining: number;
  dailyHoursRemaining: number;
}

export interface ErrorBody {
  message: string;
}

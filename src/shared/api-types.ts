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

/**
 * A campaign on Discover and the featured list. Instead of the owner's internal id it says whether
 * the campaign is the member's own (issue 10.7). The last four fields come from the guild's invite
 * (GET /invites/{code}?with_counts=true, cached server-side) and are null until known.
 */
export interface ApiDiscoverServer extends Omit<ApiServer, 'ownerId'> {
  isMine: boolean;
  /** Discord's approximate_member_count. */
  memberCount: number | null;
  /** Discord's approximate_presence_count (members online). */
  onlineCount: number | null;
  /** The guild's description (Community servers), or null. */
  description: string | null;
  /** Full CDN URL of the guild's banner, or null. */
  bannerUrl: string | null;
}

export interface ApiCampaign extends ApiServer {
  joinCount: number;
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

// Response shapes of the JSON API, shared by the server (which builds them) and the web app.
// Money fields are "12.50" strings; timestamps are ISO strings.
import type { CampaignKind } from './campaign-kinds.ts';
import type { Locale } from './i18n/index.ts';

export interface ApiUser {
  id: string;
  discordId: string;
  discordUsername: string;
  discordAvatar: string | null;
  /** Full CDN URL of the avatar, or null (the UI falls back to the initial). */
  avatarUrl: string | null;
  coins: string;
  createdAt: string;
  /** The app language (decision 050): chosen in the switcher, else from the Discord locale at sign-in. */
  locale: Locale;
}

export interface PublicConfig {
  productName: string;
  demoMode: boolean;
  stripePublishableKey: string | null;
  /** Demo mode: where the local stand-in for Stripe.js is served; null: Stripe's own (js.stripe.com). */
  stripeJsUrl: string | null;
  supportUrl: string;
}

/**
 * What the server inlines into the SPA's HTML (src/auth/spa-pages.ts): the answers of /api/auth/user
 * (this request's session) and /api/config, so the first render needs no round trip.
 */
export interface AppBoot {
  user: ApiUser | null;
  config: PublicConfig;
  /**
   * The page's first data (decision 031): each entry is one query's cached answer, keyed as the web app's
   * query-key factories key it (web/src/lib/query-keys.ts), the same body the API gives for that key.
   */
  queries?: BootQuery[];
  /** True when <div id="root"> holds the server's rendering of this page: the app hydrates it. */
  rendered?: boolean;
  /**
   * Signed out (Terms, Privacy): the visitor's language, from the remembered cookie or Accept-Language
   * (decision 061). Signed in, `user.locale` is the language.
   */
  locale?: Locale;
}

export interface BootQuery {
  key: readonly unknown[];
  data: unknown;
}

export interface ApiServer {
  id: string;
  ownerId: string;
  name: string;
  inviteLink: string;
  /** Which rules apply (src/shared/campaign-kinds.ts). */
  kind: CampaignKind;
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
  /** Who may see and join it (issue 31 item 2): null fields ask for nothing beyond the platform's rules. */
  targeting: { minAccountAgeDays: number | null; language: string | null };
}

/** What an owner sees about a campaign's health (My Campaigns, Dashboard). */
export interface ApiCampaignHealth {
  /** Our bot was removed from the guild: the campaign is paused (off Discover) until it is invited again. */
  botRemoved: boolean;
  /** The completion DM could not be delivered (the owner's DMs are closed or they share no server with the bot). */
  ownerUnreachable: boolean;
  /** The invite stopped working (expired, deleted, or another server's): off Discover until replaced. */
  inviteExpired: boolean;
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
  /** Consecutive daily claims, each within 48 h of the one before (0 once broken); showing only. */
  dailyStreak: number;
  /** The longest daily streak ever. */
  bestDailyStreak: number;
}

export interface ErrorBody {
  message: string;
}

/** What happened to one of the member's joins (My Joins). */
export type ApiJoinState =
  | 'waiting' // Waiting for you to accept the invite
  | 'verified' // Verified +0.50, stay until <date>
  | 'stayed' // Stayed, keep or leave freely
  | 'left_early' // Left early −2.00
  | 'left' // Left after the stay, or removed by the server (no penalty)
  | 'no_reward' // Verified after the last slot was taken
  | 'same_address' // Verified, not paid: shares an internet connection with the owner (decision 022)
  | 'expired'; // Expired, join again

/** GET /api/joins/pace: the member's join pace (decision 038), shown before a click. */
export interface ApiJoinPace {
  /** When the next join is allowed; null = now. */
  nextJoinAt: string | null;
  /** Seconds until then (0 = now), so a browser with a wrong clock still counts down right. */
  waitSeconds: number;
  perHour: number;
  perDay: number;
  joinsLastHour: number;
  joinsLastDay: number;
  /** Servers the member's Discord account is in, as last read; null = not read yet. */
  guildCount: number | null;
  /** Discord's cap for this account (100, or 200 with Nitro). */
  guildCap: number;
}

export interface ApiJoin {
  id: string;
  campaignId: string;
  serverName: string;
  iconUrl: string | null;
  noBot: boolean;
  state: ApiJoinState;
  joinedAt: string;
  verifiedAt: string | null;
  /** Frozen reward ("0.50") once verified. */
  reward: string | null;
  /** Frozen penalty ("2.00") for leaving before safeToLeaveAt. */
  penalty: string | null;
  /** When leaving stops costing anything (verified joins). */
  safeToLeaveAt: string | null;
  leftAt: string | null;
  /** Joining again is possible (pending or expired join, campaign still open). */
  canRetry: boolean;
  /** A no-bot join whose reward can be claimed now (10 s passed). */
  canClaim: boolean;
}

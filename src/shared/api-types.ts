// Response shapes of the JSON API, shared by the server (which builds them) and the web app.
// Money fields are "12.50" strings; timestamps are ISO strings. Each type is its zod schema's
// (api-schemas.ts, which the OpenAPI document and the contract test read): a field is declared once.
import type { z } from 'zod';
import type * as s from './api-schemas.ts';
import type { Locale } from './i18n/index.ts';

export type ApiUser = z.infer<typeof s.apiUserSchema>;
export type PublicConfig = z.infer<typeof s.publicConfigSchema>;

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

export type ApiServer = z.infer<typeof s.apiServerSchema>;
/** What an owner sees about a campaign's health (My Campaigns, Dashboard). */
export type ApiCampaignHealth = z.infer<typeof s.campaignHealthSchema>;
/** A campaign on Discover and the featured list. */
export type ApiDiscoverServer = z.infer<typeof s.apiDiscoverServerSchema>;
export type ApiCampaign = z.infer<typeof s.apiCampaignSchema>;
export type ApiTransaction = z.infer<typeof s.apiTransactionSchema>;
export type ApiSocialTask = z.infer<typeof s.apiSocialTaskSchema>;
export type RewardStatus = z.infer<typeof s.rewardStatusSchema>;
/** GET /api/joins/pace: the member's join pace (decision 038), shown before a click. */
export type ApiJoinPace = z.infer<typeof s.apiJoinPaceSchema>;
export type ApiJoin = z.infer<typeof s.apiJoinSchema>;
/** What happened to one of the member's joins (My Joins). */
export type ApiJoinState = ApiJoin['state'];

import type { QueryKey } from '@tanstack/react-query';
import type { TransactionFilter } from '@shared/history-schemas.ts';

// Every query key in the app comes from one of these factories, one per feature (bulletproof-react's
// query-key factories). Keys are API paths split into segments: the default query function GETs the
// segments joined by "/" (docs/spec/product-spec.md §7), and invalidating a key also refreshes every key it prefixes.
// They live in lib/ (not in each feature folder) because the after-change sets below cross features,
// and lib/ never imports features/.

export const authKeys = {
  user: () => ['/api/auth/user'] as const,
  config: () => ['/api/config'] as const,
};

/** Discover: both server lists share the prefix, so `all()` refreshes pages and the featured list. */
export const serverKeys = {
  all: () => ['/api/servers'] as const,
  pages: (search: string) => [...serverKeys.all(), 'pages', search] as const,
  featured: (search: string) => [...serverKeys.all(), 'featured', search] as const,
};

export const campaignKeys = {
  list: () => ['/api/campaigns'] as const,
  myServers: () => ['/api/servers/mine'] as const,
  botInvite: () => ['/api/bot/invite'] as const,
  /** Submit's server picker: the servers the user owns or manages (issue 31 item 3). */
  manageableGuilds: () => ['/api/guilds/manageable'] as const,
  /** My Campaigns' member quality (issue 31 item 1). */
  quality: () => ['/api/campaigns/quality'] as const,
};

/** Owner notifications of one campaign (decision 052): its settings and its delivery log. */
export const notificationKeys = {
  settings: (campaignId: string) => ['/api/campaigns', campaignId, 'notifications'] as const,
  deliveries: (campaignId: string) => ['/api/campaigns', campaignId, 'notifications', 'deliveries'] as const,
};

/** The ledger: every key sits under `all()`, so one invalidation refreshes list, summary, history and chart. */
export const transactionKeys = {
  all: () => ['/api/transactions'] as const,
  /** GET /api/transactions: the latest ten (Dashboard). */
  recent: () => transactionKeys.all(),
  summary: () => [...transactionKeys.all(), 'summary'] as const,
  history: (filter: TransactionFilter | 'all', page: number) =>
    [...transactionKeys.all(), 'history', filter, page] as const,
  earnings: () => [...transactionKeys.all(), 'earnings'] as const,
};

export const socialKeys = {
  list: () => ['/api/social'] as const,
};

export const rewardKeys = {
  status: () => ['/api/hourly'] as const,
};

export const joinKeys = {
  list: () => ['/api/joins'] as const,
};

/** The Account page's personal access tokens (decision 053). */
export const accountKeys = {
  tokens: () => ['/api/account/tokens'] as const,
};

/** The Account page's reminder settings (decision 055). */
export const reminderKeys = {
  settings: () => ['/api/account/reminders'] as const,
};

export const paymentKeys = {
  intent: (packageType: string) => ['/api/create-payment-intent', packageType] as const,
};

/**
 * What a coin-moving action can change (docs/spec/product-spec.md §7: "after join, claim, complete, promote, submit and
 * reward claims the user, server, social, campaign and hourly data are refetched"; the ledger, My
 * Servers and My Joins change with the same credits and debits).
 */
export const ACCOUNT_DATA_KEYS: readonly QueryKey[] = [
  authKeys.user(),
  campaignKeys.myServers(),
  socialKeys.list(),
  campaignKeys.list(),
  rewardKeys.status(),
  transactionKeys.all(),
  joinKeys.list(),
];

/** ACCOUNT_DATA_KEYS plus the Discover lists. */
export const AFTER_CHANGE_KEYS: readonly QueryKey[] = [serverKeys.all(), ...ACCOUNT_DATA_KEYS];

/** A purchase only adds coins: the balance and the ledger. */
export const AFTER_PURCHASE_KEYS: readonly QueryKey[] = [authKeys.user(), transactionKeys.all()];

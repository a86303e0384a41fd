import { z } from 'zod';
import type { earningsDaySchema } from './api-schemas.ts';
import { SUPPORTED_LOCALES } from './i18n/index.ts';

// Transaction history and account endpoints: shared by the API and the web app (no server imports).

/** Filters offered on the history page; each groups ledger types that belong together. */
export const TRANSACTION_FILTERS = {
  rewards: { label: 'Rewards', types: ['welcome', 'hourly', 'bonus', 'daily'] },
  joins: { label: 'Server joins', types: ['join_reward', 'nobot_reward', 'leave_penalty', 'penalty_refund'] },
  social: { label: 'Social tasks', types: ['social'] },
  campaigns: { label: 'Campaigns', types: ['campaign', 'promote'] },
  purchases: { label: 'Purchases', types: ['purchase', 'purchase_reversal'] },
  account: { label: 'Account', types: ['account_deleted'] },
} as const;

export type TransactionFilter = keyof typeof TRANSACTION_FILTERS;

export const HISTORY_PAGE_SIZE = 20;
export const EARNINGS_DAYS = 30;

/**
 * GET /api/transactions query. Without any parameter the endpoint answers as the spec's call does
 * (the latest entries); with page/pageSize/filter it pages, and the total count travels in the
 * X-Total-Count header so the body keeps the spec's shape (an array of transactions).
 */
export const transactionsQuerySchema = z.object({
  page: z.coerce
    .number()
    .int('page must be a whole number')
    .min(1, 'page must be at least 1')
    .max(100_000)
    .optional(),
  pageSize: z.coerce
    .number()
    .int('pageSize must be a whole number')
    .min(1)
    .max(100, 'pageSize must be at most 100')
    .optional(),
  filter: z
    .enum(Object.keys(TRANSACTION_FILTERS) as [TransactionFilter, ...TransactionFilter[]], 'Unknown filter')
    .optional(),
});
export type TransactionsQuery = z.infer<typeof transactionsQuerySchema>;

export const earningsQuerySchema = z.object({
  /** The browser's offset from UTC in minutes (Date#getTimezoneOffset), so days are the user's days. */
  tzOffset: z.coerce.number().int().min(-840).max(840).default(0),
});

export type EarningsDay = z.infer<typeof earningsDaySchema>;

/** PUT /api/account/locale: the app language chosen in the switcher (decision 050). */
export const accountLocaleSchema = z.object({
  locale: z.enum(SUPPORTED_LOCALES, `Choose one of: ${SUPPORTED_LOCALES.join(', ')}`),
});

export const deleteAccountSchema = z.object({
  /** The user types their username to confirm; the server checks it. */
  confirmUsername: z.string('Type your username to confirm').min(1, 'Type your username to confirm').max(100),
});

import { z } from 'zod';

// Personal access tokens for the public API (decision 053), shared by the API and the Account page.

/** Every token starts with this, so secret scanners (and people) recognise a leaked one. */
export const ACCESS_TOKEN_PREFIX = 'cs_pat_';

/**
 * What a token may do. There is deliberately no scope for moving coins to anyone, buying coins, deleting
 * the account or managing tokens: those stay with a signed-in browser session.
 */
export const ACCESS_TOKEN_SCOPES = ['read', 'rewards:claim', 'campaigns:manage'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];

export const ACCESS_TOKEN_SCOPE_LABELS: Record<AccessTokenScope, { label: string; help: string }> = {
  read: { label: 'Read', help: 'Your balance, history, joins, rewards and campaigns' },
  'rewards:claim': { label: 'Claim rewards', help: 'Hourly, bonus and daily rewards, social tasks, joins' },
  'campaigns:manage': {
    label: 'Manage campaigns',
    help: 'Submit, promote, top up, cancel your own campaigns (spends your coins)',
  },
};

/** Lifetimes offered at creation, in days; null = never expires. */
export const ACCESS_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365, null] as const;
export const MAX_ACCESS_TOKENS_PER_USER = 20;
/** Requests one token may make per minute (its own limit, beside the write limits every request meets). */
export const ACCESS_TOKEN_REQUESTS_PER_MINUTE = 60;

export const ACCESS_TOKEN_MESSAGES = {
  invalid: 'Invalid or revoked access token',
  routeRefused: 'Access tokens cannot use this endpoint; sign in on the website instead',
  tooMany: `You can have at most ${MAX_ACCESS_TOKENS_PER_USER} access tokens. Revoke one first.`,
  notFound: 'Access token not found',
  rateLimited: 'Too many requests with this access token. Please wait a minute and try again.',
} as const;

export function missingScopeMessage(scope: AccessTokenScope): string {
  return `This access token lacks the "${scope}" scope`;
}

/** POST /api/account/tokens */
export const createAccessTokenSchema = z.object({
  name: z
    .string('Give the token a name')
    .trim()
    .min(1, 'Give the token a name')
    .max(60, 'Token names are at most 60 characters'),
  scopes: z
    .array(z.enum(ACCESS_TOKEN_SCOPES, 'Unknown scope'), 'Choose at least one scope')
    .min(1, 'Choose at least one scope')
    .max(ACCESS_TOKEN_SCOPES.length),
  expiresInDays: z
    .union(
      ACCESS_TOKEN_EXPIRY_DAYS.map((d) => z.literal<number | null>(d)) as [z.ZodLiteral<number | null>],
      'Choose when the token expires',
    )
    .default(30),
});
export type CreateAccessTokenInput = z.input<typeof createAccessTokenSchema>;

/** `:id` of DELETE /api/account/tokens/:id */
export const accessTokenIdParamsSchema = z.object({
  id: z.string().min(1, ACCESS_TOKEN_MESSAGES.notFound).max(64, ACCESS_TOKEN_MESSAGES.notFound),
});

/** One token in the list (never the token itself). */
export const apiAccessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The token's last four characters: "cs_pat_…" + hint. */
  hint: z.string(),
  scopes: z.array(z.enum(ACCESS_TOKEN_SCOPES)),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiAccessToken = z.infer<typeof apiAccessTokenSchema>;

/** The creation's answer: the only time the token is ever shown. */
export const createdAccessTokenSchema = apiAccessTokenSchema.extend({ token: z.string() });
export type CreatedAccessToken = z.infer<typeof createdAccessTokenSchema>;

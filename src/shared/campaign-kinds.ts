import { formatCents } from './money.ts';

// THE table of campaign kinds (docs/spec/product-spec.md §4, §7, §9). Every number a member or an owner is told about a
// kind — the join reward, the minimum stay, the early-leave penalty, the cost per member slot, the
// promotion price — is defined here once. The server's rules (submit, promote, verify, leave
// penalties, frozen join terms), the web app's copy, the demo data and the test factories all read it.
// Adding a kind to CAMPAIGN_KINDS is a compile error until this table and every `switch` on a kind
// (they end in `assertNever`) handle it. Server-free and zod-free: the web app imports it as is.

export const CAMPAIGN_KINDS = ['regular', 'featured', 'nobot'] as const;
export type CampaignKind = (typeof CAMPAIGN_KINDS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CampaignKindRules {
  /** What a member earns for a verified (bot kinds) or claimed (no-bot) join, in hundredths. */
  rewardCents: number;
  /** How long a member must stay before leaving is free; null: nobody watches leaves (no bot). */
  minStayMs: number | null;
  /** Charged to a member who leaves before the minimum stay, in hundredths; null: never charged. */
  penaltyCents: number | null;
  /** What the owner pays per member slot, in hundredths. */
  costPerSlotCents: number;
  /** Joins are verified by our bot in the guild (GUILD_MEMBER_ADD); else by the member's own guild list. */
  needsBot: boolean;
  /** Can be promoted to featured (POST /api/servers/:id/promote). */
  promotable: boolean;
  // A kind's name is a text, not a rule: the web catalogue holds it (`campaigns.kinds.*` in
  // src/shared/i18n/locales/<locale>/web.json, shown by web/src/features/campaigns/kind-label.ts).
}

export const CAMPAIGN_KIND_RULES = {
  regular: {
    rewardCents: 50,
    minStayMs: 2 * DAY_MS,
    penaltyCents: 200,
    costPerSlotCents: 100,
    needsBot: true,
    promotable: true,
  },
  featured: {
    rewardCents: 75,
    minStayMs: 5 * DAY_MS,
    penaltyCents: 200,
    costPerSlotCents: 100,
    needsBot: true,
    // A featured campaign whose featured slots ran out can be promoted again (promote-campaign.ts).
    promotable: true,
  },
  nobot: {
    rewardCents: 20,
    minStayMs: null,
    penaltyCents: null,
    costPerSlotCents: 100,
    needsBot: false,
    promotable: false,
  },
} as const satisfies Record<CampaignKind, CampaignKindRules>;

/** One promotion: this many coins buy this many featured member slots (docs/spec/product-spec.md §4). */
export const PROMOTION = { costCoins: 100, slots: 100 } as const;

/**
 * The fewest members a campaign (or a top-up) buys. Here, zod-free, so a page that only shows the
 * "Add members" button does not load the schemas (campaign-schemas.ts re-exports it).
 */
export const MIN_CAMPAIGN_COINS = 3;

/** Compile-time exhaustiveness: `default: return assertNever(kind)` in every switch on a kind. */
export function assertNever(value: never): never {
  throw new Error(`unhandled campaign kind: ${String(value)}`);
}

export function isCampaignKind(value: unknown): value is CampaignKind {
  return typeof value === 'string' && (CAMPAIGN_KINDS as readonly string[]).includes(value);
}

/** The join reward as the API and the copy show it: "0.50". */
export function rewardText(kind: CampaignKind): string {
  return formatCents(CAMPAIGN_KIND_RULES[kind].rewardCents);
}

/** The early-leave penalty as text ("2.00"); the bot kinds share one penalty. */
export function penaltyText(kind: 'regular' | 'featured'): string {
  return formatCents(CAMPAIGN_KIND_RULES[kind].penaltyCents);
}

/** The minimum stay in whole days (2, 5). */
export function minStayDays(kind: 'regular' | 'featured'): number {
  return CAMPAIGN_KIND_RULES[kind].minStayMs / DAY_MS;
}

/** "2 days" / "5 days". */
export function minStayText(kind: 'regular' | 'featured'): string {
  const days = minStayDays(kind);
  return `${days} ${days === 1 ? 'day' : 'days'}`;
}

/** What one verified member is promised, frozen on the join row (decision 016). */
export interface JoinTerms {
  rewardCents: number;
  minStayMs: number;
  penaltyCents: number;
}

/** The terms of a slot of a bot kind. A featured campaign's featured pool is taken first. */
export function joinTermsOf(kind: 'regular' | 'featured'): JoinTerms {
  const rules = CAMPAIGN_KIND_RULES[kind];
  return { rewardCents: rules.rewardCents, minStayMs: rules.minStayMs, penaltyCents: rules.penaltyCents };
}

import { describe, expect, it } from 'vitest';
import {
  CAMPAIGN_KIND_RULES,
  CAMPAIGN_KINDS,
  PROMOTION,
  assertNever,
  isCampaignKind,
  joinTermsOf,
  minStayText,
  penaltyText,
  rewardText,
  type CampaignKind,
} from './campaign-kinds.ts';

const DAY = 24 * 60 * 60 * 1000;

// The spec's numbers (product-spec.md "Numbers"), typed out here on purpose: the table must match them.
describe('the campaign-kind table', () => {
  it('pays the spec join rewards: regular 0.50, featured 0.75, no-bot 0.20', () => {
    expect(CAMPAIGN_KIND_RULES.regular.rewardCents).toBe(50);
    expect(CAMPAIGN_KIND_RULES.featured.rewardCents).toBe(75);
    expect(CAMPAIGN_KIND_RULES.nobot.rewardCents).toBe(20);
    expect(CAMPAIGN_KINDS.map(rewardText)).toEqual(['0.50', '0.75', '0.20']);
  });

  it('keeps members 2 days (regular) and 5 days (featured), with a 2.00 early-leave penalty; no-bot has neither', () => {
    expect(CAMPAIGN_KIND_RULES.regular.minStayMs).toBe(2 * DAY);
    expect(CAMPAIGN_KIND_RULES.featured.minStayMs).toBe(5 * DAY);
    expect(minStayText('regular')).toBe('2 days');
    expect(minStayText('featured')).toBe('5 days');
    expect(penaltyText('regular')).toBe('2.00');
    expect(penaltyText('featured')).toBe('2.00');
    expect(CAMPAIGN_KIND_RULES.nobot.minStayMs).toBeNull();
    expect(CAMPAIGN_KIND_RULES.nobot.penaltyCents).toBeNull();
  });

  it('charges 1 coin per member slot for every kind, and 100 coins for 100 featured slots', () => {
    for (const kind of CAMPAIGN_KINDS) expect(CAMPAIGN_KIND_RULES[kind].costPerSlotCents).toBe(100);
    expect(PROMOTION).toEqual({ costCoins: 100, slots: 100 });
    expect(PROMOTION.costCoins * 100).toBe(PROMOTION.slots * CAMPAIGN_KIND_RULES.featured.costPerSlotCents);
  });

  it('needs the bot and allows promotion only for the bot kinds', () => {
    expect(CAMPAIGN_KINDS.filter((k) => CAMPAIGN_KIND_RULES[k].needsBot)).toEqual(['regular', 'featured']);
    expect(CAMPAIGN_KINDS.filter((k) => CAMPAIGN_KIND_RULES[k].promotable)).toEqual(['regular', 'featured']);
  });

  it('freezes a slot’s terms from the table', () => {
    expect(joinTermsOf('featured')).toEqual({ rewardCents: 75, minStayMs: 5 * DAY, penaltyCents: 200 });
    expect(joinTermsOf('regular')).toEqual({ rewardCents: 50, minStayMs: 2 * DAY, penaltyCents: 200 });
  });

  it('recognises exactly its kinds, and assertNever refuses anything else at run time', () => {
    expect(['regular', 'featured', 'nobot', 'Featured', '', null].map(isCampaignKind)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(() => assertNever('gold' as never)).toThrow(/unhandled campaign kind: gold/);
    // A switch that forgets a kind does not compile (kept as a type-level check). The kinds' names moved
    // to the web catalogue with their assertion (web/src/features/campaigns/kind-label.test.ts).
    const watched = (kind: CampaignKind): boolean => {
      switch (kind) {
        case 'regular':
        case 'featured':
        case 'nobot':
          return CAMPAIGN_KIND_RULES[kind].needsBot;
        default:
          return assertNever(kind);
      }
    };
    expect(CAMPAIGN_KINDS.map(watched)).toEqual([true, true, false]);
  });
});

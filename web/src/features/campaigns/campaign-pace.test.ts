import { afterAll, describe, expect, it } from 'vitest';
import { i18n, switchLocale } from '../../lib/i18n.ts';
import { campaignPace, etaText as etaIn, paceText as paceIn, type CampaignPace } from './campaign-pace.ts';

const t = i18n.getFixedT('en');
const paceText = (pace: CampaignPace) => paceIn(pace, t, 'en');
const etaText = (pace: CampaignPace) => etaIn(pace, t);

const DAY = 24 * 60 * 60 * 1000;
const start = Date.parse('2026-01-01T00:00:00Z');

describe('campaign pace and ETA', () => {
  it('says members per day since the start and when the last slot fills', () => {
    const pace = campaignPace(
      { initialMemberSlots: 30, membersRemaining: 20, createdAt: new Date(start).toISOString() },
      start + 2 * DAY,
    );
    expect(pace.perDay).toBe(5);
    expect(pace.etaDays).toBe(4);
    expect(paceText(pace)).toBe('5 members/day');
    expect(etaText(pace)).toBe('~4 days');
  });

  it('has no pace and no ETA before the first join, and never divides by a tiny age', () => {
    const none = campaignPace(
      { initialMemberSlots: 10, membersRemaining: 10, createdAt: '2026-01-01T00:00:00Z' },
      start,
    );
    expect(paceText(none)).toBe('No joins yet');
    expect(etaText(none)).toBe('—');
    const early = campaignPace(
      { initialMemberSlots: 10, membersRemaining: 9, createdAt: new Date(start).toISOString() },
      start + 1000,
    );
    expect(paceText(early)).toBe('24 members/day');
    expect(etaText(early)).toBe('~9 hours');
    const one = campaignPace(
      { initialMemberSlots: 10, membersRemaining: 9, createdAt: new Date(start).toISOString() },
      start + DAY,
    );
    expect(paceText(one)).toBe('1 member/day');
    expect(etaText(one)).toBe('~9 days');
  });

  it('speaks the member’s language and writes numbers its way', async () => {
    await switchLocale('de');
    const de = i18n.getFixedT('de');
    const pace = campaignPace(
      { initialMemberSlots: 10, membersRemaining: 3, createdAt: new Date(start).toISOString() },
      start + 2 * DAY,
    );
    expect(paceIn(pace, de, 'de')).toBe('3,5 Mitglieder/Tag');
    expect(etaIn(pace, de)).toBe('~21 Stunden');
    expect(etaIn({ perDay: 1, etaDays: 1 }, de)).toBe('~1 Tag');
    expect(etaIn({ perDay: 1, etaDays: 0.01 }, de)).toBe('unter einer Stunde');
  });
  afterAll(() => switchLocale('en'));
});

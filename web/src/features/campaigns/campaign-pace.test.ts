import { describe, expect, it } from 'vitest';
import { campaignPace, etaText, paceText } from './campaign-pace.ts';

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
});

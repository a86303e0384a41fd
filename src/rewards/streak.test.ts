import { describe, expect, it } from 'vitest';
import { HOUR } from '../clock.ts';
import { computeStreak, STREAK_WINDOW_MS } from './streak.ts';

describe('computeStreak', () => {
  const t0 = Date.UTC(2026, 0, 1, 23, 30);

  it('is 0/0 without claims', () => {
    expect(computeStreak([], t0)).toEqual({ current: 0, best: 0 });
  });

  it('counts by the 24 h cooldown, not calendar days: claiming whenever ready never breaks it', () => {
    // 23:30, then 00:10 two calendar days later (a UTC day without a claim), within 48 h.
    const claims = [t0, t0 + 24 * HOUR + 40 * 60_000];
    expect(computeStreak(claims, claims[1]!)).toEqual({ current: 2, best: 2 });
  });

  it('breaks after more than 48 h; the best run stays', () => {
    const claims = [t0, t0 + 24 * HOUR, t0 + 48 * HOUR, t0 + 48 * HOUR + STREAK_WINDOW_MS + 1];
    expect(computeStreak(claims, claims[3]!)).toEqual({ current: 1, best: 3 });
    expect(computeStreak(claims, claims[3]! + STREAK_WINDOW_MS)).toEqual({ current: 1, best: 3 });
    expect(computeStreak(claims, claims[3]! + STREAK_WINDOW_MS + 1)).toEqual({ current: 0, best: 3 });
  });
});

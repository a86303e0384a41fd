import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCents, formatCoins, parseMoney } from './money.ts';

describe('money', () => {
  it('parses and formats two-decimal strings', () => {
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney('0.05')).toBe(5);
    expect(parseMoney('-2.00')).toBe(-200);
    expect(parseMoney('3')).toBe(300);
    expect(formatCents(1250)).toBe('12.50');
    expect(formatCents(-200)).toBe('-2.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCoins(undefined, '0.50')).toBe('0.50');
  });

  it('rejects what is not plain decimal money', () => {
    for (const bad of ['', 'abc', '1.234', '1e3', '0x10', '1,5', '123456789.00', ' . ']) {
      expect(parseMoney(bad)).toBeNull();
    }
  });

  it('round-trips every amount in the decimal(10,2) range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -9_999_999_999, max: 9_999_999_999 }), (cents) => {
        expect(parseMoney(formatCents(cents))).toBe(cents);
      }),
    );
  });
});

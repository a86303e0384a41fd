import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  parseCampaignCoins,
  parseInviteCode,
  parseMemberCount,
  submitServerSchema,
} from '../shared/campaign-schemas.ts';

// The shared rules the web forms and the API both apply.

const code = fc.stringMatching(/^[A-Za-z0-9-]{2,20}$/);

describe('parseInviteCode', () => {
  it('reads the code from every accepted Discord invite URL form', () => {
    fc.assert(
      fc.property(code, (c) => {
        for (const url of [
          `https://discord.gg/${c}`,
          `https://www.discord.gg/${c}/`,
          `https://discord.com/invite/${c}`,
          `https://discordapp.com/invite/${c}?utm=x`,
          `  https://DISCORD.GG/${c}  `,
        ]) {
          expect(parseInviteCode(url)).toBe(c);
        }
      }),
    );
  });

  it('refuses look-alike hosts, other schemes, other paths and credentials', () => {
    fc.assert(
      fc.property(code, (c) => {
        for (const url of [
          `http://discord.gg/${c}`,
          `https://discord.gg.evil.com/${c}`,
          `https://evil.com/discord.gg/${c}`,
          `https://discord.com/${c}`,
          `https://discord.com/invite/${c}/extra`,
          `https://user:pw@discord.gg/${c}`,
          `https://discord.gg:8443/${c}`,
          `discord.gg/${c}`,
        ]) {
          expect(parseInviteCode(url)).toBeNull();
        }
      }),
    );
  });
});

describe('coins and member counts', () => {
  it('rounds coins down and never accepts fewer than 3', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e8 }), fc.constantFrom(0, 1, 2), (cents, places) => {
        const text = places === 0 ? String(Math.floor(cents / 100)) : (cents / 100).toFixed(places);
        const n = Number(text);
        const parsed = parseCampaignCoins(text);
        if (n < 3) expect(parsed.ok).toBe(false);
        else expect(parsed).toEqual({ ok: true, coins: Math.floor(n) });
      }),
    );
  });

  it('reads a coin string only when it is plain money (digits, at most two decimals)', () => {
    for (const bad of ['0b11', '0x10', '1e3', '-5', '+5', '5.', '.5', '5.001', ' 5 5', 'Infinity', '５']) {
      expect(parseCampaignCoins(bad).ok, bad).toBe(false);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 12 }), (text) => {
        if (!/^\d+(\.\d{1,2})?$/.test(text.trim())) expect(parseCampaignCoins(text).ok).toBe(false);
      }),
    );
  });

  it('accepts only whole member counts of at least 3', () => {
    expect(parseMemberCount('3')).toBe(3);
    expect(parseMemberCount(' 42 ')).toBe(42);
    for (const bad of ['2', '3.0', '1e3', '-5', '', 'ten', '0x10']) expect(parseMemberCount(bad)).toBeNull();
  });

  it('does not need coins for a featured intent', () => {
    expect(
      submitServerSchema.safeParse({
        name: 'Star',
        inviteLink: 'https://discord.gg/abc',
        isFeaturedIntent: true,
      }).success,
    ).toBe(true);
    expect(submitServerSchema.safeParse({ name: 'Star', inviteLink: 'https://discord.gg/abc' }).success).toBe(
      false,
    );
  });
});

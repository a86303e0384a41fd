import type { ParseKeys } from 'i18next';
import type { Locale } from '@shared/i18n/index.ts';
import { COIN_PACKS, PACK_IDS, POPULAR_PACK, type PackId } from '@shared/packs.ts';

export interface PackView {
  id: PackId;
  name: string;
  coins: number;
  priceCents: number;
  note: string | null;
  popular: boolean;
}

export const PACKS: readonly PackView[] = PACK_IDS.map((id) => ({
  ...COIN_PACKS[id],
  popular: id === POPULAR_PACK,
}));

/** Each pack's name and note in the catalogue (decision 050); English is src/shared/packs.ts's. */
export const PACK_TEXT = {
  small: { nameKey: 'packs.small.name', noteKey: null },
  medium: { nameKey: 'packs.medium.name', noteKey: 'packs.medium.note' },
  large: { nameKey: 'packs.large.name', noteKey: 'packs.large.note' },
  xlarge: { nameKey: 'packs.xlarge.name', noteKey: 'packs.xlarge.note' },
} as const satisfies Record<PackId, { nameKey: ParseKeys<'web'>; noteKey: ParseKeys<'web'> | null }>;

/** "$10" for whole dollars, "$9.99" otherwise (the pay button reads "Pay $10"); by locale ("10 $" in de). */
export function formatPrice(dollars: number, locale: Locale): string {
  const whole = Number.isInteger(dollars);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(dollars);
}

/** Price of 100 coins in the pack, e.g. "$1.82". */
export function pricePer100(pack: Pick<PackView, 'priceCents' | 'coins'>, locale: Locale): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(
    pack.priceCents / pack.coins, // cents per coin = dollars per 100 coins
  );
}

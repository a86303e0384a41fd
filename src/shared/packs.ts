// Coin packs (docs/spec/product-spec.md §3). The server is the source of truth for prices; the web app shows the same table.
export const COIN_PACKS = {
  small: { id: 'small', name: 'Starter Pack', priceCents: 500, coins: 250, note: null },
  medium: { id: 'medium', name: 'Growth Pack', priceCents: 1000, coins: 550, note: '+50 bonus coins' },
  large: { id: 'large', name: 'Pro Pack', priceCents: 2500, coins: 1500, note: '+250 bonus' },
  xlarge: { id: 'xlarge', name: 'Ultimate Pack', priceCents: 5000, coins: 3500, note: '+1000 bonus' },
} as const;

export type PackId = keyof typeof COIN_PACKS;
export const PACK_IDS = Object.keys(COIN_PACKS) as PackId[];
export const POPULAR_PACK: PackId = 'medium';

export function isPackId(value: unknown): value is PackId {
  return typeof value === 'string' && Object.hasOwn(COIN_PACKS, value);
}

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

/** "$10" for whole dollars, "$9.99" otherwise (the pay button reads "Pay $10"). */
export function formatPrice(dollars: number): string {
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}

/** Price of 100 coins in the pack, e.g. "$1.82". */
export function pricePer100(pack: Pick<PackView, 'priceCents' | 'coins'>): string {
  return `$${(pack.priceCents / pack.coins).toFixed(2)}`;
}

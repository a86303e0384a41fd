import type { IconType } from 'react-icons';
import {
  LuCirclePlus,
  LuCompass,
  LuGift,
  LuHistory,
  LuLayoutDashboard,
  LuListChecks,
  LuMegaphone,
  LuShare2,
  LuShoppingCart,
  LuStar,
  LuUserRound,
} from 'react-icons/lu';

// The route table (src/routes.ts) names its icons; only the signed-in navigation loads the components.
export const NAV_ICONS = {
  compass: LuCompass,
  star: LuStar,
  share: LuShare2,
  gift: LuGift,
  cart: LuShoppingCart,
  megaphone: LuMegaphone,
  dashboard: LuLayoutDashboard,
  plus: LuCirclePlus,
  list: LuListChecks,
  history: LuHistory,
  user: LuUserRound,
} satisfies Record<string, IconType>;

export type NavIconName = keyof typeof NAV_ICONS;

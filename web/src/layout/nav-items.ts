import type { IconType } from 'react-icons';
import {
  LuCirclePlus,
  LuCompass,
  LuGift,
  LuLayoutDashboard,
  LuMegaphone,
  LuShare2,
  LuShoppingCart,
  LuStar,
} from 'react-icons/lu';

export interface NavItem {
  to: string;
  label: string;
  icon: IconType;
  /** Other paths that belong to this tab (e.g. checkout belongs to Buy Coins). */
  alsoActiveOn?: readonly string[];
}

// Spec §2: exactly these eight tabs, in this order.
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Discover', icon: LuCompass },
  { to: '/featured', label: 'Featured', icon: LuStar },
  { to: '/socials', label: 'Socials', icon: LuShare2 },
  { to: '/daily', label: 'Rewards', icon: LuGift },
  { to: '/buy-coins', label: 'Buy Coins', icon: LuShoppingCart, alsoActiveOn: ['/checkout'] },
  { to: '/campaigns', label: 'My Campaigns', icon: LuMegaphone },
  { to: '/dashboard', label: 'Dashboard', icon: LuLayoutDashboard },
  { to: '/submit', label: 'Submit', icon: LuCirclePlus },
];

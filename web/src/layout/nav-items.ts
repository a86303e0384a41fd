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

export interface NavItem {
  to: string;
  label: string;
  icon: IconType;
  /** Other paths that belong to this tab (e.g. checkout belongs to Buy Coins). */
  alsoActiveOn?: readonly string[];
}

// Spec §2: exactly these eight tabs, in this order (the desktop tab bar).
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

/** Pages beyond the spec's tabs: reached from the account menu on desktop and "More" on a phone. */
export const ACCOUNT_ITEMS: readonly NavItem[] = [
  { to: '/joins', label: 'My Joins', icon: LuListChecks },
  { to: '/history', label: 'Transaction history', icon: LuHistory },
  { to: '/account', label: 'Account', icon: LuUserRound },
];

/** The phone's bottom bar: the destinations used most; everything else sits behind "More". */
export const PHONE_BAR_PATHS: readonly string[] = ['/', '/daily', '/socials', '/dashboard'];

export function isActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/') return pathname === '/';
  return (
    pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.alsoActiveOn ?? []).includes(pathname)
  );
}

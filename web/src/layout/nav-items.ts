import type { IconType } from 'react-icons';
import { ROUTES, type AppRoute } from '../routes.ts';
import { NAV_ICONS } from './nav-icons.ts';

export interface NavItem {
  to: string;
  labelKey: AppRoute['labelKey'];
  icon: IconType;
  /** Other paths that belong to this entry (e.g. checkout belongs to Buy Coins). */
  alsoActiveOn?: readonly string[];
}

const toItem = (route: AppRoute): NavItem => ({
  to: route.path,
  labelKey: route.labelKey,
  icon: route.icon ? NAV_ICONS[route.icon] : NAV_ICONS.list,
  alsoActiveOn: route.alsoActiveOn,
});

// Everything below is derived from the route table (src/routes.ts); nothing here names a path.

/** Product spec (docs/spec/product-spec.md) §2: the eight tabs, in the table's order (the desktop tab bar). */
export const NAV_ITEMS: readonly NavItem[] = ROUTES.filter((r) => r.nav === 'tab').map(toItem);

/** The phone's bottom bar: the destinations used most, in their bar order. */
export const PHONE_BAR_ITEMS: readonly NavItem[] = ROUTES.filter((r) => r.nav && r.phoneBar)
  .sort((a, b) => (a.phoneBar ?? 0) - (b.phoneBar ?? 0))
  .map(toItem);

/** Behind "More" on a phone: the other tabs, then the account pages. */
export const MORE_ITEMS: readonly NavItem[] = ROUTES.filter((r) => r.nav && !r.phoneBar).map(toItem);

export function isActive(item: NavItem, pathname: string): boolean {
  if (item.to === '/') return pathname === '/';
  return (
    pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.alsoActiveOn ?? []).includes(pathname)
  );
}

import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import type { NavIconName } from './layout/nav-icons.ts';

/** A page module: default-exports its component (loaded on demand, one chunk per page). */
export type PageModule = { default: ComponentType };

export interface AppRoute {
  path: string;
  /** Its name in the navigation: a key of the web catalogue (decision 050). */
  labelKey: ParseKeys<'web'>;
  /** Icon in the navigation (names, not components: the login bundle carries no icon set). */
  icon?: NavIconName;
  /** `shell`: signed in, inside header/nav/footer. `bare`: shown to everyone, without the shell. */
  layout: 'shell' | 'bare';
  /**
   * Where the navigation lists it: `tab` = the spec's eight tabs (desktop tab bar; on a phone the bottom
   * bar or More), `account` = pages beyond the spec (header account links; More on a phone), none = not listed.
   */
  nav?: 'tab' | 'account';
  /** Position in the phone's bottom bar (the four most used destinations); absent = behind More. */
  phoneBar?: 1 | 2 | 3 | 4;
  /** Other paths that light this entry up (checkout belongs to Buy Coins). */
  alsoActiveOn?: readonly string[];
  load: () => Promise<PageModule>;
}

// The one route table: the router (app.tsx → routed-app.tsx) and every navigation (nav tabs, bottom bar,
// More menu) are built from it. Product spec (docs/spec/product-spec.md) §2: the tabs are exactly these eight, in this order.
export const ROUTES: readonly AppRoute[] = [
  {
    path: '/',
    labelKey: 'nav.discover',
    icon: 'compass',
    layout: 'shell',
    nav: 'tab',
    phoneBar: 1,
    load: () => import('./pages/discover-page.tsx'),
  },
  {
    path: '/featured',
    labelKey: 'nav.featured',
    icon: 'star',
    layout: 'shell',
    nav: 'tab',
    load: () => import('./pages/featured-page.tsx'),
  },
  {
    path: '/socials',
    labelKey: 'nav.socials',
    icon: 'share',
    layout: 'shell',
    nav: 'tab',
    phoneBar: 3,
    load: () => import('./pages/socials-page.tsx'),
  },
  {
    path: '/daily',
    labelKey: 'nav.rewards',
    icon: 'gift',
    layout: 'shell',
    nav: 'tab',
    phoneBar: 2,
    load: () => import('./pages/rewards-page.tsx'),
  },
  {
    path: '/buy-coins',
    labelKey: 'nav.buyCoins',
    icon: 'cart',
    layout: 'shell',
    nav: 'tab',
    alsoActiveOn: ['/checkout'],
    load: () => import('./pages/buy-coins-page.tsx'),
  },
  {
    path: '/campaigns',
    labelKey: 'nav.campaigns',
    icon: 'megaphone',
    layout: 'shell',
    nav: 'tab',
    load: () => import('./pages/campaigns-page.tsx'),
  },
  {
    path: '/dashboard',
    labelKey: 'nav.dashboard',
    icon: 'dashboard',
    layout: 'shell',
    nav: 'tab',
    phoneBar: 4,
    load: () => import('./pages/dashboard-page.tsx'),
  },
  {
    path: '/submit',
    labelKey: 'nav.submit',
    icon: 'plus',
    layout: 'shell',
    nav: 'tab',
    load: () => import('./pages/submit-page.tsx'),
  },
  {
    path: '/checkout',
    labelKey: 'nav.checkout',
    layout: 'shell',
    load: () => import('./pages/checkout-page.tsx'),
  },
  {
    path: '/joins',
    labelKey: 'nav.joins',
    icon: 'list',
    layout: 'shell',
    nav: 'account',
    load: () => import('./pages/my-joins-page.tsx'),
  },
  {
    path: '/history',
    labelKey: 'nav.history',
    icon: 'history',
    layout: 'shell',
    nav: 'account',
    load: () => import('./pages/history-page.tsx'),
  },
  {
    path: '/account',
    labelKey: 'nav.account',
    icon: 'user',
    layout: 'shell',
    nav: 'account',
    load: () => import('./pages/account-page.tsx'),
  },
  { path: '/terms', labelKey: 'nav.terms', layout: 'bare', load: () => import('./pages/terms-page.tsx') },
  {
    path: '/privacy',
    labelKey: 'nav.privacy',
    layout: 'bare',
    load: () => import('./pages/privacy-page.tsx'),
  },
];

/** Any other signed-in path (docs/spec/product-spec.md §2: the 404 page). */
export const loadNotFoundPage = (): Promise<PageModule> => import('./pages/not-found-page.tsx');

export function findRoute(pathname: string): AppRoute | undefined {
  return ROUTES.find((route) => route.path === pathname);
}

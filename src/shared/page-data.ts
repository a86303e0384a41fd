// What each signed-in page shows first, declared once per route (decision 031, issue 28 item 4). The server
// inlines these answers into the page's HTML and renders the page from them (src/auth/page-data.ts
// resolves each source with the functions its API route calls); the web app seeds its query cache with
// them at boot, and requests them ahead of the page when the server did not render it and when a
// navigation starts (web/src/early-data.ts), so the page's data and its chunk download side by side. Keys are the web app's query keys
// (web/src/lib/query-keys.ts builds the same arrays; web/src/lib/page-data.test.ts holds them equal).

/** One API answer a page starts with; the server has one resolver per source. */
export type PageDataSource =
  | 'discoverFirstPage'
  | 'discoverFeatured'
  | 'myServers'
  | 'transactionSummary'
  | 'recentTransactions'
  | 'rewardStatus'
  | 'socialTasks'
  | 'campaigns'
  | 'joins'
  | 'historyFirstPage';

export interface PageData {
  source: PageDataSource;
  /** The query key the web app caches it under (its segments joined make the API path, except Discover's and History's). */
  key: readonly unknown[];
}

const d = (source: PageDataSource, ...key: unknown[]): PageData => ({ source, key });

/** Route path → the queries its page starts with. Pages not listed get none and fetch after hydrating. */
export const PAGE_DATA: Readonly<Record<string, readonly PageData[]>> = {
  // Discover: useServers' infinite query (first page, no search) and the featured list.
  '/': [
    d('discoverFirstPage', '/api/servers', 'pages', ''),
    d('discoverFeatured', '/api/servers', 'featured', ''),
  ],
  '/dashboard': [
    d('myServers', '/api/servers/mine'),
    d('transactionSummary', '/api/transactions', 'summary'),
    d('recentTransactions', '/api/transactions'),
  ],
  // Rewards: the status its countdowns start from.
  '/daily': [d('rewardStatus', '/api/hourly')],
  '/socials': [d('socialTasks', '/api/social')],
  '/campaigns': [d('campaigns', '/api/campaigns'), d('myServers', '/api/servers/mine')],
  '/joins': [d('joins', '/api/joins')],
  // History: the list's first page, all kinds (the earnings chart needs the browser's time zone).
  '/history': [d('historyFirstPage', '/api/transactions', 'history', 'all', 1)],
};

export function pageDataFor(pathname: string): readonly PageData[] {
  return Object.hasOwn(PAGE_DATA, pathname) ? PAGE_DATA[pathname]! : [];
}

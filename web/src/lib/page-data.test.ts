import { describe, expect, it } from 'vitest';
import { PAGE_DATA } from '@shared/page-data.ts';
import { ROUTES } from '../routes.ts';
import { campaignKeys, joinKeys, rewardKeys, serverKeys, socialKeys, transactionKeys } from './query-keys.ts';

// The per-route page data (src/shared/page-data.ts) is keyed as the pages' own hooks key their queries:
// a drift would inline data nobody reads and the page would render its loading state on the server.
describe('PAGE_DATA', () => {
  it("uses the query-key factories' keys", () => {
    const keys = Object.fromEntries(
      Object.entries(PAGE_DATA).map(([path, list]) => [path, list.map((entry) => entry.key)]),
    );
    expect(keys).toEqual({
      '/': [serverKeys.pages(''), serverKeys.featured('')],
      '/dashboard': [campaignKeys.myServers(), transactionKeys.summary(), transactionKeys.recent()],
      '/daily': [rewardKeys.status()],
      '/socials': [socialKeys.list()],
      '/campaigns': [campaignKeys.list(), campaignKeys.myServers()],
      '/joins': [joinKeys.list()],
      '/history': [transactionKeys.history('all', 1)],
    });
  });

  it('names only routes the app has', () => {
    const paths = new Set(ROUTES.map((route) => route.path));
    for (const path of Object.keys(PAGE_DATA)) expect(paths.has(path), path).toBe(true);
  });
});

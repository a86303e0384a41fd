import type { AppContext } from '../context.ts';
import type { BootQuery } from '../shared/api-types.ts';
import { transactionsQuerySchema } from '../shared/history-schemas.ts';
import { listMyServers } from '../campaigns/list-campaigns.ts';
import { listTransactions, summarizeTransactions } from '../campaigns/list-transactions.ts';
import { nextPageUrl, parseDiscoverQuery } from '../joins/discover-query.ts';
import { findDiscoverPage, findFeaturedServersJson } from '../joins/list-servers.ts';

/**
 * The first data of a signed-in page, inlined into its HTML (decision 031): for each query the page
 * starts with, the key the web app caches it under (web/src/lib/query-keys.ts) and the body its API
 * route answers for this user (the same functions the routes call). Pages not listed get none and ask
 * the API after hydrating.
 */
export async function pageQueries(ctx: AppContext, userId: string, pathname: string): Promise<BootQuery[]> {
  switch (pathname) {
    case '/': {
      // GET /api/servers (first page, no search) as useServers' infinite query holds it, and
      // GET /api/servers/featured.
      const params = parseDiscoverQuery({});
      const page = await findDiscoverPage(ctx, { userId, ...params });
      const first = {
        servers: JSON.parse(page.body.toString('utf8')) as unknown,
        next: page.nextCursor ? nextPageUrl(params, false, page.nextCursor) : null,
      };
      return [
        { key: ['/api/servers', 'pages', ''], data: { pages: [first], pageParams: ['/api/servers'] } },
        {
          key: ['/api/servers', 'featured', ''],
          data: JSON.parse((await findFeaturedServersJson(ctx, userId)).toString('utf8')) as unknown,
        },
      ];
    }
    case '/dashboard': {
      const [mine, summary, recent] = await Promise.all([
        listMyServers(ctx, userId),
        summarizeTransactions(ctx, userId),
        listTransactions(ctx, userId, transactionsQuerySchema.parse({})),
      ]);
      return [
        { key: ['/api/servers/mine'], data: mine },
        { key: ['/api/transactions', 'summary'], data: summary },
        { key: ['/api/transactions'], data: recent.items },
      ];
    }
    default:
      return [];
  }
}

import type { AppContext } from '../context.ts';
import type { BootQuery } from '../shared/api-types.ts';
import { HISTORY_PAGE_SIZE, transactionsQuerySchema } from '../shared/history-schemas.ts';
import { pageDataFor, type PageDataSource } from '../shared/page-data.ts';
import { listActiveCampaigns, listMyCampaigns } from '../campaigns/list-campaigns.ts';
import { listTransactions, summarizeTransactions } from '../campaigns/list-transactions.ts';
import { nextPageUrl, parseDiscoverQuery } from '../joins/discover-query.ts';
import { findDiscoverPage, findFeaturedCampaignsJson } from '../joins/discover-campaigns.ts';
import { listMyJoins } from '../joins/list-my-joins.ts';
import { encodedAround, encodedJson } from './encoded-json.ts';
import { getRewardStatus } from '../rewards/get-reward-status.ts';
import { listSocialTasks } from '../social/list-social-tasks.ts';

type Resolve = (ctx: AppContext, userId: string) => Promise<unknown>;

/**
 * Each source's data as the web app caches it: the body its API route answers for this user, computed
 * by the same functions the route calls (Discover's first page wrapped as useServers' infinite query
 * holds it; History's first page with the total the route sends in X-Total-Count). Discover's two are
 * the list's own JSON bytes (EncodedJson, inlined as they are: encoded-json.ts), not parsed.
 */
const RESOLVE: Record<PageDataSource, Resolve> = {
  async discoverFirstPage(ctx, userId) {
    // GET /api/servers (first page, no search).
    const params = parseDiscoverQuery({});
    const page = await findDiscoverPage(ctx, { userId, ...params });
    const next = page.nextCursor ? nextPageUrl(params, false, page.nextCursor) : null;
    // { pages: [{ servers, next }], pageParams: ['/api/servers'] } around the list's own bytes.
    return encodedAround(
      '{"pages":[{"servers":',
      page.body,
      `,"next":${JSON.stringify(next)}}],"pageParams":["/api/servers"]}`,
    );
  },
  async discoverFeatured(ctx, userId) {
    return encodedJson(await findFeaturedCampaignsJson(ctx, userId));
  },
  myServers: (ctx, userId) => listMyCampaigns(ctx, userId),
  transactionSummary: (ctx, userId) => summarizeTransactions(ctx, userId),
  async recentTransactions(ctx, userId) {
    return (await listTransactions(ctx, userId, transactionsQuerySchema.parse({}))).items;
  },
  rewardStatus: (ctx, userId) => getRewardStatus(ctx.store.read, userId, ctx.clock.now()),
  socialTasks: (ctx, userId) => listSocialTasks(ctx.store.read, userId),
  campaigns: (ctx, userId) => listActiveCampaigns(ctx, userId),
  joins: (ctx, userId) => listMyJoins(ctx, userId),
  async historyFirstPage(ctx, userId) {
    // GET /api/transactions?page=1&pageSize=20 as useTransactionHistory holds it.
    const { items, total } = await listTransactions(
      ctx,
      userId,
      transactionsQuerySchema.parse({ page: 1, pageSize: HISTORY_PAGE_SIZE }),
    );
    return { items, total, pageCount: Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE)) };
  },
};

/**
 * The first data of a signed-in page, inlined into its HTML (decision 031): for each query the page
 * declares in src/shared/page-data.ts, the key the web app caches it under and the body its API route
 * answers for this user. Pages not listed get none and ask the API after hydrating.
 */
export async function pageQueries(ctx: AppContext, userId: string, pathname: string): Promise<BootQuery[]> {
  return Promise.all(
    pageDataFor(pathname).map(async ({ source, key }) => ({ key, data: await RESOLVE[source](ctx, userId) })),
  );
}

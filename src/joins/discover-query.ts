import { AppError } from '../shared/errors.ts';
import { DISCOVER_MAX_PAGE_SIZE, DISCOVER_PAGE_SIZE } from './discover-campaigns.ts';

// Query of GET /api/servers (a compatible extension of the spec's endpoint: without parameters it
// answers the first page in the spec's order and shape). Parsed by hand rather than with zod: this
// is the hottest route, and the first page carries no parameters at all.

export interface DiscoverParams {
  limit: number;
  cursor?: string;
  q?: string;
  featured?: boolean;
}

export const DISCOVER_SEARCH_MAX = 100;

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new AppError('bad_request', `${name} must be given once`);
  return value;
}

export function parseDiscoverQuery(query: Record<string, unknown>): DiscoverParams {
  const params: DiscoverParams = { limit: DISCOVER_PAGE_SIZE };
  const limit = single(query, 'limit');
  if (limit !== undefined) {
    const n = /^\d{1,3}$/.test(limit) ? Number(limit) : Number.NaN;
    if (!(n >= 1 && n <= DISCOVER_MAX_PAGE_SIZE)) {
      throw new AppError('bad_request', `limit must be a whole number from 1 to ${DISCOVER_MAX_PAGE_SIZE}`);
    }
    params.limit = n;
  }
  const cursor = single(query, 'cursor');
  if (cursor !== undefined) {
    if (!/^[\w-]{1,200}$/.test(cursor)) throw new AppError('bad_request', 'Invalid cursor');
    params.cursor = cursor;
  }
  const q = single(query, 'q')?.trim();
  if (q) {
    if (q.length > DISCOVER_SEARCH_MAX) {
      throw new AppError('bad_request', `Search for at most ${DISCOVER_SEARCH_MAX} characters`);
    }
    params.q = q;
  }
  const featured = single(query, 'featured');
  if (featured !== undefined) {
    if (featured !== 'true' && featured !== 'false')
      throw new AppError('bad_request', 'featured must be true or false');
    params.featured = featured === 'true';
  }
  return params;
}

/** The `Link: <...>; rel="next"` target for the page after `cursor` (same filters and size). */
export function nextPageUrl(params: DiscoverParams, explicitLimit: boolean, cursor: string): string {
  const search = new URLSearchParams();
  if (explicitLimit) search.set('limit', String(params.limit));
  if (params.q) search.set('q', params.q);
  if (params.featured !== undefined) search.set('featured', String(params.featured));
  search.set('cursor', cursor);
  return `/api/servers?${search.toString()}`;
}

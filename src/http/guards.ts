import type { Request } from 'express';
import { AppError } from '../shared/errors.ts';
import { localizeForRequest } from '../i18n/server-messages.ts';
import type { Guard } from './fast-path.ts';

/** First line of every protected handler: the signed-in user's id, or a 401. */
export function requireUser(req: Request): string {
  const id = req.user?.id;
  if (!id) throw new AppError('unauthorized', 'Not signed in');
  return id;
}

/**
 * Whether a request is a cross-site state-changing request to refuse (a second line behind SameSite=Lax
 * cookies). Browsers send Sec-Fetch-Site and Origin; requests without either (scripts, webhooks) pass.
 * `protocol` is asked only when an Origin is sent.
 */
export function refusesCrossSite(
  allowed: ReadonlySet<string>,
  method: string | undefined,
  site: string | undefined,
  origin: string | undefined,
  protocol: () => string,
  host: string | undefined,
): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (site === 'cross-site' || origin === 'null') return true;
  if (origin === undefined || allowed.has(origin)) return false;
  return origin !== `${protocol()}://${host ?? ''}`;
}

export const CROSS_SITE_MESSAGE = 'Cross-site request refused';

/**
 * Refuses cross-site state-changing requests with a 403 (see `refusesCrossSite`), as a guard of the API;
 * the fast path leaves a refused request to the full stack, which answers it.
 */
export function sameOriginGuard(allowedOrigins: string[]): Guard {
  const allowed = new Set(allowedOrigins);
  return {
    name: 'same origin',
    middleware: (req, res, next) => {
      if (
        refusesCrossSite(
          allowed,
          req.method,
          req.get('sec-fetch-site'),
          req.get('origin'),
          () => req.protocol,
          req.get('host'),
        )
      ) {
        res.status(403).json({ message: localizeForRequest(CROSS_SITE_MESSAGE, req) });
        return;
      }
      next();
    },
    fast: (call, next) => {
      const { method, headers } = call.req;
      const site = headers['sec-fetch-site'];
      if (refusesCrossSite(allowed, method, site, headers.origin, () => call.view.protocol, headers.host))
        return call.decline();
      next();
    },
  };
}

/** Parses input with a zod schema and turns the first problem into a 400 `{ message }`. */
export function parseInput<T>(
  schema: {
    safeParse(
      v: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: { message: string; path: PropertyKey[] }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new AppError('bad_request', issue?.message ?? 'Invalid input');
}
